import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import DownloadIcon from "lucide-react/icons/download";
import LinkIcon from "lucide-react/icons/link";
import SmartphoneIcon from "lucide-react/icons/smartphone";
import Trash2Icon from "lucide-react/icons/trash-2";
import UploadIcon from "lucide-react/icons/upload";
import * as React from "react";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useSnackbar } from "@/components/ui/snackbar";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { useErrorText, useFormatDateTime, useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { downloadFile } from "@/lib/download";
import { AdminPage, LoadError, LoadingState } from "./-components/admin-page";
import { UploadVersionDialog } from "./-versions/upload-version-dialog";
import { downloadUrl, LATEST_FILE_NAME, LATEST_URL, type Version, versionFileName } from "./-versions/version-utils";

// docs/product.md §2 "Version Management": a latest-version card, a total-versions card, the history table
// (the first entry 'Latest', the rest 'Archive') and the upload dialog; §8 "Versions" texts.
export const Route = createFileRoute("/_auth/admin/versions")({
  component: VersionsPage,
});

/** Which download is running: a version id, 'latest', or none. */
type Downloading = number | "latest" | null;

function VersionsPage() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const t = useMessages();
  const formatDateTime = useFormatDateTime();
  const errorText = useErrorText();
  const versions = useQuery(trpc.versions.list.queryOptions());
  const remove = useMutation(trpc.versions.delete.mutationOptions());

  const [upload, setUpload] = React.useState({ open: false, key: 0 });
  const [toDelete, setToDelete] = React.useState<Version | null>(null);
  const [downloading, setDownloading] = React.useState<Downloading>(null);

  const list = versions.data?.versions;
  const latest = list?.[0] ?? null;
  const openUpload = () => setUpload((previous) => ({ open: true, key: previous.key + 1 }));

  async function download(target: Version | "latest") {
    const which = target === "latest" ? "latest" : target.id;
    setDownloading(which);
    try {
      if (target === "latest") await downloadFile(LATEST_URL, LATEST_FILE_NAME);
      else await downloadFile(downloadUrl(target.id), versionFileName(target));
    } catch (error) {
      console.error(error);
      showSnackbar(target === "latest" ? t.versions.latestDownloadFailed : t.versions.downloadFailed, "error");
    } finally {
      setDownloading((current) => (current === which ? null : current));
    }
  }

  async function confirmDelete() {
    const version = toDelete;
    if (!version) return;
    try {
      await remove.mutateAsync({ id: version.id });
      showSnackbar(t.versions.deleted(version.version_name), "success");
      await queryClient.invalidateQueries({ queryKey: trpc.versions.list.queryKey() });
    } catch (error) {
      showSnackbar(errorText(error, t.versions.deleteFailed), "error");
    }
  }

  return (
    <AdminPage
      title={t.versions.title}
      description={t.versions.description}
      actions={
        <Button onClick={openUpload}>
          <UploadIcon aria-hidden="true" />
          {t.versions.uploadVersion}
        </Button>
      }
    >
      {versions.isPending ? (
        <LoadingState label={t.versions.loading} />
      ) : versions.isError && !list ? (
        <LoadError
          title={t.versions.loadFailed}
          error={versions.error}
          onRetry={() => void versions.refetch()}
          retrying={versions.isFetching}
        />
      ) : (
        <>
          <div className="grid gap-6 md:grid-cols-3">
            <LatestVersionCard
              latest={latest}
              downloading={downloading === "latest"}
              onDownload={() => void download("latest")}
              onUpload={openUpload}
            />
            <Card data-slot="total-versions-card" className="gap-3">
              <CardHeader>
                <CardTitle>
                  <h2 className="text-base">{t.versions.totalVersions}</h2>
                </CardTitle>
              </CardHeader>
              <CardContent className="flex items-baseline gap-2">
                <span className="text-4xl font-bold tabular-nums text-primary" data-testid="total-versions">
                  {list?.length ?? 0}
                </span>
                <span className="text-sm text-muted-foreground">{t.versions.uploadedCount(list?.length ?? 0)}</span>
              </CardContent>
            </Card>
          </div>

          <Card className="gap-0 overflow-hidden py-0">
            <CardHeader className="border-b py-4 [.border-b]:pb-4">
              <CardTitle>
                <h2 className="text-lg">{t.versions.history}</h2>
              </CardTitle>
              <CardDescription>{t.versions.historyDescription}</CardDescription>
            </CardHeader>
            {list && list.length > 0 ? (
              <Table aria-label={t.versions.historyLabel}>
                <TableHeader className="bg-muted/40">
                  <TableRow className="hover:bg-transparent">
                    <TableHead className="pl-4 sm:pl-6">{t.versions.versionName}</TableHead>
                    <TableHead className="hidden sm:table-cell">{t.versions.code}</TableHead>
                    <TableHead className="hidden sm:table-cell">{t.versions.uploaded}</TableHead>
                    <TableHead>{t.common.status}</TableHead>
                    <TableHead className="pr-4 text-right sm:pr-6">{t.common.actions}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {list.map((version, index) => (
                    <TableRow key={version.id} data-version-id={version.id} data-version-code={version.version_code}>
                      <TableCell className="pl-4 whitespace-normal sm:pl-6">
                        <span className="font-medium break-all">{version.version_name}</span>
                        {/* On a phone the code and date go under the name instead of in their own columns. */}
                        <span className="mt-0.5 block text-xs text-muted-foreground sm:hidden">
                          {t.versions.codeAndDate(version.version_code, formatDateTime(version.created_at))}
                        </span>
                      </TableCell>
                      <TableCell className="hidden tabular-nums sm:table-cell">{version.version_code}</TableCell>
                      <TableCell className="hidden text-muted-foreground sm:table-cell">{formatDateTime(version.created_at)}</TableCell>
                      <TableCell>
                        {index === 0 ? (
                          <Badge variant="success">{t.versions.latestBadge}</Badge>
                        ) : (
                          <Badge variant="secondary">{t.versions.archiveBadge}</Badge>
                        )}
                      </TableCell>
                      <TableCell className="pr-4 text-right sm:pr-6">
                        <div className="flex justify-end gap-1">
                          <IconButton
                            label={t.versions.downloadLabel(version.version_name)}
                            tooltip={t.versions.download}
                            onClick={() => void download(version)}
                            busy={downloading === version.id}
                          >
                            <DownloadIcon aria-hidden="true" />
                          </IconButton>
                          <IconButton
                            label={t.versions.deleteLabel(version.version_name)}
                            tooltip={t.common.delete}
                            onClick={() => setToDelete(version)}
                            className="text-destructive hover:bg-destructive/10 hover:text-destructive"
                          >
                            <Trash2Icon aria-hidden="true" />
                          </IconButton>
                        </div>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            ) : (
              <p className="px-6 py-8 text-center text-sm text-muted-foreground">{t.versions.empty}</p>
            )}
          </Card>
        </>
      )}

      <UploadVersionDialog
        key={upload.key}
        maxUploadMb={versions.data?.max_upload_mb ?? null}
        open={upload.open}
        onOpenChange={(open) => setUpload((previous) => ({ ...previous, open }))}
      />
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => {
          if (!open) setToDelete(null);
        }}
        title={t.versions.deleteDialog.title}
        message={toDelete && t.versions.deleteDialog.message(toDelete.version_name, toDelete.version_code)}
        confirmText={t.common.delete}
        cancelText={t.common.cancel}
        destructive
        onConfirm={confirmDelete}
      />
    </AdminPage>
  );
}

function LatestVersionCard({
  latest,
  downloading,
  onDownload,
  onUpload,
}: {
  latest: Version | null;
  downloading: boolean;
  onDownload: () => void;
  onUpload: () => void;
}) {
  const t = useMessages();
  const formatDateTime = useFormatDateTime();
  const publicUrl = typeof window === "undefined" ? LATEST_URL : new URL(LATEST_URL, window.location.origin).href;
  return (
    <Card data-slot="latest-version-card" className="gap-4 md:col-span-2">
      <CardHeader className="flex items-start gap-4">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-accent text-primary">
          <SmartphoneIcon aria-hidden="true" className="size-5" />
        </span>
        <div className="grid min-w-0 gap-1.5">
          <CardTitle>
            <h2 className="text-base">{t.versions.latest.title}</h2>
          </CardTitle>
          {latest ? (
            <>
              <p className="text-2xl font-bold break-all" data-testid="latest-version-name">
                {latest.version_name}
              </p>
              <p className="text-sm text-muted-foreground">
                {t.versions.latest.code} <span className="font-medium text-foreground tabular-nums">{latest.version_code}</span> ·{" "}
                {t.versions.latest.uploadedAt(formatDateTime(latest.created_at))}
              </p>
            </>
          ) : (
            <CardDescription>{t.versions.latest.none}</CardDescription>
          )}
        </div>
      </CardHeader>
      {latest ? (
        <>
          <CardContent className="grid gap-1.5 text-sm">
            <span className="font-medium">{t.versions.latest.publicLink}</span>
            <a
              href={LATEST_URL}
              className="flex w-fit max-w-full items-center gap-1.5 break-all text-primary underline-offset-4 hover:underline"
            >
              <LinkIcon aria-hidden="true" className="size-4 shrink-0" />
              {publicUrl}
            </a>
          </CardContent>
          <CardFooter>
            <Button onClick={onDownload} disabled={downloading} aria-busy={downloading || undefined}>
              {downloading ? <Spinner label={t.versions.latest.downloading} /> : <DownloadIcon aria-hidden="true" />}
              {t.versions.download}
            </Button>
          </CardFooter>
        </>
      ) : (
        <CardFooter>
          <Button variant="outline" onClick={onUpload}>
            <UploadIcon aria-hidden="true" />
            {t.versions.uploadVersion}
          </Button>
        </CardFooter>
      )}
    </Card>
  );
}

function IconButton({
  label,
  tooltip,
  onClick,
  busy = false,
  className,
  children,
}: {
  label: string;
  tooltip: string;
  onClick: () => void;
  busy?: boolean;
  className?: string;
  children: React.ReactNode;
}) {
  const t = useMessages();
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          size="icon"
          variant="ghost"
          onClick={onClick}
          disabled={busy}
          aria-busy={busy || undefined}
          aria-label={label}
          className={className}
        >
          {busy ? <Spinner label={t.versions.working} /> : children}
        </Button>
      </TooltipTrigger>
      <TooltipContent>{tooltip}</TooltipContent>
    </Tooltip>
  );
}
