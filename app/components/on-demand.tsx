import { type ComponentType, type LazyExoticComponent, lazy } from "react";

/**
 * A component whose code is a separate chunk, fetched when it is first needed rather than with the
 * page: `preload()` starts the fetch (call it on hover or focus of the
 * control that will need it, so the click rarely waits), `load()` is the same as a promise that
 * rejects if the chunk cannot be fetched, and `Lazy` renders the component inside <Suspense>. The
 * chunk is a same-origin script, so the Content-Security-Policy's 'self' covers it.
 *
 * On the server these parts never render (they appear after an interaction or once the page is
 * idle), so call sites write `import.meta.env.SSR ? notOnServer() : import("…")`: the constant
 * drops the import from the Worker's bundle, as for the dashboard's chart (c69b9cd).
 *
 * If the chunk cannot be fetched (offline, a deploy replaced it) `Lazy` renders `fallback` instead
 * of failing the page through the route's error boundary; a later `load()` tries again.
 */
/** The importer's value on the server, where it is never called (see above). */
export function notOnServer(): Promise<never> {
  return Promise.reject(new Error("This part of the page is loaded in the browser only."));
}

export function onDemand<P extends object>(
  importer: () => Promise<ComponentType<P>>,
  fallback: ComponentType<P> = () => null,
): {
  load: () => Promise<ComponentType<P>>;
  preload: () => void;
  Lazy: LazyExoticComponent<ComponentType<P>>;
} {
  let loading: Promise<ComponentType<P>> | undefined;
  const load = () => {
    loading ??= importer().catch((error: unknown) => {
      console.error("[dunly] a part of the page could not be loaded", error);
      loading = undefined;
      throw error;
    });
    return loading;
  };
  const preload = () => void load().catch(() => {});
  return {
    load,
    preload,
    Lazy: lazy(() =>
      load().then(
        (component) => ({ default: component }),
        () => ({ default: fallback }),
      ),
    ),
  };
}
