import { createFileRoute } from "@tanstack/react-router";
import WrenchIcon from "lucide-react/icons/wrench";

export const Route = createFileRoute("/maintenance")({
  component: MaintenancePage,
});

// docs/product.md §2 route table: the maintenance notice; the root guard sends visitors here while
// maintenance_mode is on.
function MaintenancePage() {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <span className="flex size-16 items-center justify-center rounded-full bg-accent text-primary">
        <WrenchIcon aria-hidden="true" className="size-8" />
      </span>
      <h1 className="text-3xl font-bold tracking-tight">Onderhoud</h1>
      <p className="text-lg text-muted-foreground">
        De website is tijdelijk niet beschikbaar vanwege onderhoud. Probeer het later nog eens.
      </p>
    </div>
  );
}
