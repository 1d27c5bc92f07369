import BookOpenIcon from "lucide-react/icons/book-open";
import * as React from "react";
import { campaignYear } from "#src/core/calendar";
import { Button } from "@/components/ui/button";
import { NativeSelect } from "@/components/ui/native-select";
import { useSnackbar } from "@/components/ui/snackbar";
import { Spinner } from "@/components/ui/spinner";
import { downloadFile } from "@/lib/download";

/** The years a treasurer hands over: this one and the two before (payments of December's invoices come in January). */
function recentYears(now: Date): number[] {
  const year = campaignYear(now);
  return [year, year - 1, year - 2];
}

/**
 * The accountant's journal of a year (GET /orders/export/journal.csv, docs/decisions/076): the invoices, credit notes
 * and payments as balanced journal lines for an accounting package.
 */
export function JournalDownload() {
  const { showSnackbar } = useSnackbar();
  const years = React.useMemo(() => recentYears(new Date()), []);
  const [year, setYear] = React.useState(years[0]!);
  const [busy, setBusy] = React.useState(false);

  async function download() {
    setBusy(true);
    try {
      await downloadFile(`/orders/export/journal.csv?year=${year}`, `journaal-${year}.csv`);
    } catch {
      showSnackbar("Journaal downloaden mislukt", "error");
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex items-center gap-1">
      <NativeSelect
        aria-label="Jaar van het journaal"
        className="h-8"
        value={String(year)}
        onChange={(e) => setYear(Number(e.target.value))}
      >
        {years.map((y) => (
          <option key={y} value={String(y)}>
            {y}
          </option>
        ))}
      </NativeSelect>
      <Button variant="outline" size="sm" onClick={() => void download()} disabled={busy}>
        {busy ? <Spinner label="Journaal wordt gemaakt" /> : <BookOpenIcon aria-hidden="true" />}
        Journaal voor de boekhouder
      </Button>
    </div>
  );
}
