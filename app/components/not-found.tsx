import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/variants";

/** The spec's not-found heading, also a route error boundary's for a 404 (app/components/route-error.tsx). */
export const NOT_FOUND_HEADING = "Sorry, We Can't Find That Page";

/** The spec's not-found content, shared by the catch-all route, /404 and 404 errors. */
export function NotFoundMessage({ children }: { children?: React.ReactNode }) {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-6 px-4 py-16 text-center">
      <p className="text-7xl font-black text-primary" aria-hidden>
        404
      </p>
      <h1 className="text-3xl font-bold">{NOT_FOUND_HEADING}</h1>
      <Link to="/dashboard" className={buttonVariants({ size: "lg" })}>
        Go Back
      </Link>
      {children}
    </section>
  );
}
