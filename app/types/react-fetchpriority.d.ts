// React 18 renders `fetchPriority` under that spelling and warns; the lowercase attribute is the one it
// passes to the HTML as it is. Its types know only the React 19 spelling.
import "react";

declare module "react" {
  // The type parameter must match React's own declaration for the two to merge.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ImgHTMLAttributes<T> {
    fetchpriority?: "high" | "low" | "auto";
  }
}
