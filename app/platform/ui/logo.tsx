// Hidden from screen readers: the name is always written beside it.
export function PawLogo({ className = "size-10" }: { className?: string }) {
  return (
    <svg aria-hidden viewBox="0 0 64 64" className={className}>
      <circle cx="32" cy="32" r="32" fill="#0f766e" />
      <g fill="#fff">
        <ellipse cx="32" cy="40" rx="11" ry="9" />
        <ellipse cx="18" cy="28" rx="5" ry="6.5" />
        <ellipse cx="46" cy="28" rx="5" ry="6.5" />
        <ellipse cx="25" cy="18" rx="4.5" ry="6" />
        <ellipse cx="39" cy="18" rx="4.5" ry="6" />
      </g>
    </svg>
  );
}
