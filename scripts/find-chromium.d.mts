/** A Chromium or Chrome executable path, or undefined when none is found. */
export function findChromium(): string | undefined;
/** A Chromium path, installing Debian's package as root when needed; exits with instructions otherwise. */
export function ensureChromium(): string;
