import LoaderCircleIcon from "lucide-react/icons/loader-circle";
import type * as React from "react";

import { cn } from "@/lib/utils";

function Spinner({ className, label = "Loading", ...props }: React.ComponentProps<"svg"> & { label?: string }) {
  return (
    <LoaderCircleIcon role="status" aria-label={label} data-slot="spinner" className={cn("size-4 animate-spin", className)} {...props} />
  );
}

/** docs/product.md §2 Guards: the centred spinner shown while auth or settings load. */
function PageSpinner({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div data-slot="page-spinner" className={cn("flex min-h-[50vh] w-full flex-1 items-center justify-center p-8", className)} {...props}>
      <Spinner className="size-10 text-primary" />
    </div>
  );
}

export { PageSpinner, Spinner };
