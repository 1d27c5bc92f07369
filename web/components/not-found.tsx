import { Link } from "@tanstack/react-router";

import { Button } from "@/components/ui/button";

// docs/product.md §2 route table: '*' shows 'Page Not Found' with a 'Go to Home' button.
export function NotFound() {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <p className="text-6xl font-extrabold tracking-tight text-primary" aria-hidden="true">
        404
      </p>
      <h1 className="text-2xl font-bold tracking-tight">Page Not Found</h1>
      <Button asChild>
        <Link to="/">Go to Home</Link>
      </Button>
    </div>
  );
}
