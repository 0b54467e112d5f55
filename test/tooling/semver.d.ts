// The one function of semver the engines test uses (semver ships no types of its own).
declare module 'semver' {
  /** True when every version in `sub` is also in `dom`. */
  export function subset(sub: string, dom: string): boolean;
}
