export { CONSOLE_SECTIONS, ConsoleNav } from "./console-nav";
