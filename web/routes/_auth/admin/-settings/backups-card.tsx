import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import ArchiveIcon from "lucide-react/icons/archive";
import DownloadIcon from "lucide-react/icons/download";
import * as React from "react";

import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useSnackbar } from "@/components/ui/snackbar";
import { Spinner } from "@/components/ui/spinner";
import { useErrorText, useFormatDateTime, useLocale, useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { downloadFile } from "@/lib/download";
import { serverRefusal } from "@/lib/errors";
import { MAX_RETRIES } from "@/lib/query-client";

/** GET /api/admin/backups/download: a file, so fetched outside tRPC (docs/architecture.md §5 "Health and backups"). */
const downloadUrl = (name: string) => `/api/admin/backups/download?name=${encodeURIComponent(name)}`;

/** Backups are the deployment's, made and kept by the first club (docs/decisions/071): other clubs get BACKUP_NOT_FOUND. */
const isNotTheirs = (error: unknown) => serverRefusal(error)?.code === "BACKUP_NOT_FOUND";

/** The backups (docs/decisions/051): make one now, and download any of those kept. */
export function BackupsCard() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const t = useMessages();
  const locale = useLocale();
  const errorText = useErrorText();
  const formatDateTime = useFormatDateTime();
  const backups = useQuery({
    ...trpc.backups.list.queryOptions(),
    retry: (failures, error) => !isNotTheirs(error) && failures < MAX_RETRIES,
  });
  const create = useMutation(trpc.backups.create.mutationOptions());
  const [downloading, setDownloading] = React.useState<string | null>(null);
  const kilobytes = (bytes: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(bytes / 1000);

  async function makeBackup() {
    try {
      const made = await create.mutateAsync();
      showSnackbar(t.backups.created(made.name), "success");
      await queryClient.invalidateQueries({ queryKey: trpc.backups.list.queryKey() });
    } catch (error) {
      showSnackbar(errorText(error, t.backups.createFailed), "error");
    }
  }

  async function download(name: string) {
    setDownloading(name);
    try {
      await downloadFile(downloadUrl(name), name);
    } catch (error) {
      console.error(error);
      showSnackbar(t.backups.downloadFailed, "error");
    } finally {
      setDownloading((current) => (current === name ? null : current));
    }
  }

  const list = backups.data?.backups;
  // No panel at all rather than an error about something that is not theirs.
  if (isNotTheirs(backups.error)) return null;
  return (
    <Card className="gap-0 overflow-hidden py-0" data-slot="backups-card">
      <CardHeader className="flex flex-wrap items-start justify-between gap-3 border-b bg-muted/40 py-4 [.border-b]:pb-4">
        <div className="grid gap-1.5">
          <CardTitle>
            <h2 className="flex items-center gap-2 text-lg">
              <ArchiveIcon aria-hidden="true" className="size-5" />
              {t.backups.title}
            </h2>
          </CardTitle>
          <CardDescription>
            {t.backups.description} {t.backups.keepNote}
          </CardDescription>
        </div>
        <Button onClick={() => void makeBackup()} disabled={create.isPending} aria-busy={create.isPending || undefined}>
          {create.isPending ? <Spinner label={t.backups.creating} /> : <ArchiveIcon aria-hidden="true" />}
          {t.backups.create}
        </Button>
      </CardHeader>
      {backups.isPending ? (
        <p className="flex items-center gap-2 px-6 py-4 text-sm text-muted-foreground">
          <Spinner label={t.backups.loading} /> {t.backups.loading}
        </p>
      ) : !list ? (
        <p className="px-6 py-4 text-sm text-destructive">{t.backups.loadFailed}</p>
      ) : list.length === 0 ? (
        <p className="px-6 py-4 text-sm text-muted-foreground">{t.backups.empty}</p>
      ) : (
        <ul className="divide-y" aria-label={t.backups.listLabel}>
          {list.map((backup) => (
            <li key={backup.name} className="flex flex-wrap items-center justify-between gap-2 px-6 py-3" data-backup={backup.name}>
              <span className="grid min-w-0">
                <span className="font-medium">{formatDateTime(backup.created_at)}</span>
                <span className="text-xs break-all text-muted-foreground">
                  {backup.name} · {t.backups.size(kilobytes(backup.bytes))}
                </span>
              </span>
              <Button
                variant="outline"
                size="sm"
                onClick={() => void download(backup.name)}
                disabled={downloading === backup.name}
                aria-busy={downloading === backup.name || undefined}
                aria-label={t.backups.downloadLabel(backup.name)}
              >
                {downloading === backup.name ? <Spinner label={t.backups.download} /> : <DownloadIcon aria-hidden="true" />}
                {t.backups.download}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
