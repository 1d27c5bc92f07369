import ListChecksIcon from "lucide-react/icons/list-checks";

import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";

/** 'Verwerken': books what a statement read in pays (docs/decisions/025), spinning while the server does. */
export function ProcessButton({ pending, disabled, onClick }: { pending: boolean; disabled: boolean; onClick: () => void }) {
  return (
    <Button onClick={onClick} disabled={disabled} aria-busy={pending || undefined}>
      {pending ? <Spinner label="Bezig met verwerken" /> : <ListChecksIcon aria-hidden="true" />}
      Verwerken
    </Button>
  );
}
