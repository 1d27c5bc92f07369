import { useMutation } from "@tanstack/react-query";
import CopyIcon from "lucide-react/icons/copy";
import DownloadIcon from "lucide-react/icons/download";
import FileTextIcon from "lucide-react/icons/file-text";
import Link2Icon from "lucide-react/icons/link-2";
import RefreshCwIcon from "lucide-react/icons/refresh-cw";
import * as React from "react";

import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Modal } from "@/components/ui/modal";
import { useSnackbar } from "@/components/ui/snackbar";
import { Spinner } from "@/components/ui/spinner";
import { useTrpc } from "@/lib/auth";
import { downloadFile, saveBlob } from "@/lib/download";
import { errorText } from "@/lib/errors";
import type { Tabler } from "./shared";

// DESIGN §6 "The door" (docs/decisions/070): a tabler's own order link, its QR code and flyer, and a renewal that
// stops the old link.

/** The button in a tabler's row; the dialog asks for the link only when it opens. */
export function SellerLinkButton({ tabler, className }: { tabler: Tabler; className?: string }) {
  const [open, setOpen] = React.useState(false);
  return (
    <>
      <Button variant="outline" size="sm" className={className} onClick={() => setOpen(true)}>
        <Link2Icon aria-hidden="true" />
        Eigen bestellink<span className="sr-only"> van {tabler.name}</span>
      </Button>
      <Modal closeLabel="Sluiten" open={open} onOpenChange={setOpen} title={`Eigen bestellink van ${tabler.name}`} className="sm:max-w-lg">
        {open && <SellerLinkPanel tabler={tabler} />}
      </Modal>
    </>
  );
}

type Link = { url: string; qr_png: string };

/** A file name from a tabler's name: letters and digits, the rest a dash. */
const fileStem = (name: string) =>
  name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "") || "tabler";

function SellerLinkPanel({ tabler }: { tabler: Tabler }) {
  const trpc = useTrpc();
  const { showSnackbar } = useSnackbar();
  const fetchLink = useMutation(trpc.tablers.link.mutationOptions());
  const [link, setLink] = React.useState<Link | null>(null);
  const [failed, setFailed] = React.useState<string | null>(null);
  const [confirmingRenew, setConfirmingRenew] = React.useState(false);
  const [flyerBusy, setFlyerBusy] = React.useState(false);
  const fieldId = React.useId();

  const load = React.useCallback(
    async (renew: boolean) => {
      setFailed(null);
      try {
        const answer = await fetchLink.mutateAsync({ id: tabler.id, renew });
        setLink({ url: answer.url, qr_png: answer.qr_png });
        return true;
      } catch (error) {
        setFailed(errorText(error, "De bestellink ophalen is mislukt."));
        return false;
      }
    },
    [fetchLink.mutateAsync, tabler.id],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: asked once, when the dialog opens
  React.useEffect(() => {
    void load(false);
  }, []);

  async function copy() {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link.url);
      showSnackbar("Link gekopieerd", "success");
    } catch {
      showSnackbar("Kopiëren lukte niet: selecteer de link en kopieer hem zelf.", "error");
    }
  }

  function downloadQr() {
    if (!link) return;
    // The answer's data URL as bytes (a fetch of it would need the CSP's connect-src to allow data:).
    const bytes = Uint8Array.from(atob(link.qr_png.slice(link.qr_png.indexOf(",") + 1)), (char) => char.charCodeAt(0));
    saveBlob(new Blob([bytes], { type: "image/png" }), `bestellink-${fileStem(tabler.name)}.png`);
  }

  async function downloadFlyer() {
    setFlyerBusy(true);
    try {
      await downloadFile(`/tablers/link/flyer.pdf?id=${tabler.id}`, `flyer-${fileStem(tabler.name)}.pdf`);
    } catch {
      showSnackbar(`Flyer van ${tabler.name} downloaden mislukt`, "error");
    } finally {
      setFlyerBusy(false);
    }
  }

  async function renew() {
    if (await load(true)) showSnackbar("Nieuwe link gemaakt. De oude link werkt niet meer.", "success");
    else throw new Error("renewal failed");
  }

  if (!link) {
    return failed ? (
      <div className="grid gap-3">
        <p role="alert" className="text-sm text-destructive">
          {failed}
        </p>
        <Button variant="outline" className="justify-self-start" onClick={() => void load(false)}>
          Opnieuw proberen
        </Button>
      </div>
    ) : (
      <div className="flex justify-center py-8">
        <Spinner label="Bestellink laden" />
      </div>
    );
  }

  return (
    <div data-slot="seller-link" className="grid min-w-0 gap-4">
      <p className="text-sm text-muted-foreground">
        Met deze link bestellen klanten zelf, zonder wachtwoord. Hun bestelling staat op naam van {tabler.name}.
      </p>
      <div className="grid gap-2">
        <Label htmlFor={fieldId}>Link</Label>
        <div className="flex min-w-0 gap-2">
          <Input id={fieldId} readOnly value={link.url} className="min-w-0 font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
          <Button variant="outline" onClick={() => void copy()}>
            <CopyIcon aria-hidden="true" />
            Kopiëren
          </Button>
        </div>
      </div>
      <img
        src={link.qr_png}
        alt={`QR-code van de bestellink van ${tabler.name}`}
        width={200}
        height={200}
        className="size-48 justify-self-center rounded-md border bg-white sm:size-52"
      />
      {failed && (
        <p role="alert" className="text-sm text-destructive">
          {failed}
        </p>
      )}
      <div className="grid gap-2 sm:flex sm:flex-wrap">
        <Button variant="outline" onClick={downloadQr}>
          <DownloadIcon aria-hidden="true" />
          QR-code downloaden
        </Button>
        <Button variant="outline" disabled={flyerBusy} onClick={() => void downloadFlyer()}>
          {flyerBusy ? <Spinner label="Flyer maken" /> : <FileTextIcon aria-hidden="true" />}
          Flyer (PDF)
        </Button>
      </div>
      <div className="grid gap-2 border-t pt-4 sm:flex sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground">Link in verkeerde handen? Een nieuwe link stopt de oude.</p>
        <Button variant="outline" className="text-destructive hover:text-destructive" onClick={() => setConfirmingRenew(true)}>
          <RefreshCwIcon aria-hidden="true" />
          Nieuwe link maken
        </Button>
      </div>
      <ConfirmDialog
        busyLabel="Bezig"
        open={confirmingRenew}
        onOpenChange={setConfirmingRenew}
        title="Nieuwe link maken?"
        message={`De huidige link en QR-code van ${tabler.name} werken daarna niet meer, ook niet op flyers die al zijn uitgedeeld. Klanten met de oude link kunnen dan niet meer bestellen.`}
        confirmText="Nieuwe link maken"
        cancelText="Annuleren"
        destructive
        onConfirm={renew}
      />
    </div>
  );
}
