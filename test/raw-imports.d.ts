/** Vite's `?raw` imports (a file's text), as the SDK's tests read its README and example. */
declare module "*?raw" {
  const text: string;
  export default text;
}
