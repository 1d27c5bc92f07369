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
import { useTrpc } from "@/lib/auth";
import { downloadFile } from "@/lib/download";
import { errorText } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { AdminPage, LoadError, LoadingState } from "./-components/admin-page";
import { UploadVersionDialog } from "./-versions/upload-version-dialog";
import {
  DOWNLOAD_FAILED,
  downloadUrl,
  LATEST_DOWNLOAD_FAILED,
  LATEST_FILE_NAME,
  LATEST_URL,
  type Version,
  versionFileName,
} from "./-versions/version-utils";

// spec §2 "Version Management": a latest-version card, a total-versions card, the history table
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
      showSnackbar(target === "latest" ? LATEST_DOWNLOAD_FAILED : DOWNLOAD_FAILED, "error");
    } finally {
      setDownloading((current) => (current === which ? null : current));
    }
  }

  async function confirmDelete() {
    const version = toDelete;
    if (!version) return;
    try {
      await remove.mutateAsync({ id: version.id });
      showSnackbar(`Version ${version.version_name} deleted`, "success");
      await queryClient.invalidateQueries({ queryKey: trpc.versions.list.queryKey() });
    } catch (error) {
      showSnackbar(errorText(error, "Failed to delete version"), "error");
    }
  }

  return (
    <AdminPage
      title="Version Management"
      description="Builds of the mobile app (APK). The app updates itself from the latest version."
      actions={
        <Button onClick={openUpload}>
          <UploadIcon aria-hidden="true" />
          Upload Version
        </Button>
      }
    >
      {versions.isPending ? (
        <LoadingState label="Loading versions" />
      ) : versions.isError && !list ? (
        <LoadError
          title="Failed to load versions"
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
                  <h2 className="text-base">Total Versions</h2>
                </CardTitle>
              </CardHeader>
              <CardContent className="flex items-baseline gap-2">
                <span className="text-4xl font-bold tabular-nums text-primary" data-testid="total-versions">
                  {list?.length ?? 0}
                </span>
                <span className="text-sm text-muted-foreground">{list?.length === 1 ? "version" : "versions"} uploaded</span>
              </CardContent>
            </Card>
          </div>

          <Card className="gap-0 overflow-hidden py-0">
            <CardHeader className="border-b py-4 [.border-b]:pb-4">
              <CardTitle>
                <h2 className="text-lg">Version History</h2>
              </CardTitle>
              <CardDescription>Newest version code first.</CardDescription>
            </CardHeader>
            {list && list.length > 0 ? (
              <Table aria-label="Version history">
                <TableHeader className="bg-muted/40">
                  <TableRow className="hover:bg-transparent">
                    <TableHead className="pl-4 sm:pl-6">Version name</TableHead>
                    <TableHead className="hidden sm:table-cell">Code</TableHead>
                    <TableHead className="hidden sm:table-cell">Uploaded</TableHead>
                    <TableHead>Status</TableHead>
                    <TableHead className="pr-4 text-right sm:pr-6">Actions</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {list.map((version, index) => (
                    <TableRow key={version.id} data-version-id={version.id} data-version-code={version.version_code}>
                      <TableCell className="pl-4 whitespace-normal sm:pl-6">
                        <span className="font-medium break-all">{version.version_name}</span>
                        {/* On a phone the code and date go under the name instead of in their own columns. */}
                        <span className="mt-0.5 block text-xs text-muted-foreground sm:hidden">
                          Code {version.version_code} · {formatDateTime(version.created_at)}
                        </span>
                      </TableCell>
                      <TableCell className="hidden tabular-nums sm:table-cell">{version.version_code}</TableCell>
                      <TableCell className="hidden text-muted-foreground sm:table-cell">{formatDateTime(version.created_at)}</TableCell>
                      <TableCell>
                        {index === 0 ? <Badge variant="success">Latest</Badge> : <Badge variant="secondary">Archive</Badge>}
                      </TableCell>
                      <TableCell className="pr-4 text-right sm:pr-6">
                        <div className="flex justify-end gap-1">
                          <IconButton
                            label={`Download ${version.version_name}`}
                            tooltip="Download"
                            onClick={() => void download(version)}
                            busy={downloading === version.id}
                          >
                            <DownloadIcon aria-hidden="true" />
                          </IconButton>
                          <IconButton
                            label={`Delete ${version.version_name}`}
                            tooltip="Delete"
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
              <p className="px-6 py-8 text-center text-sm text-muted-foreground">No versions uploaded yet.</p>
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
        title="Delete version?"
        message={
          toDelete &&
          `Version ${toDelete.version_name} (code ${toDelete.version_code}) and its APK file will be removed. This cannot be undone.`
        }
        confirmText="Delete"
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
  const publicUrl = typeof window === "undefined" ? LATEST_URL : new URL(LATEST_URL, window.location.origin).href;
  return (
    <Card data-slot="latest-version-card" className="gap-4 md:col-span-2">
      <CardHeader className="flex items-start gap-4">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-accent text-primary">
          <SmartphoneIcon aria-hidden="true" className="size-5" />
        </span>
        <div className="grid min-w-0 gap-1.5">
          <CardTitle>
            <h2 className="text-base">Latest Version</h2>
          </CardTitle>
          {latest ? (
            <>
              <p className="text-2xl font-bold break-all" data-testid="latest-version-name">
                {latest.version_name}
              </p>
              <p className="text-sm text-muted-foreground">
                Code <span className="font-medium text-foreground tabular-nums">{latest.version_code}</span> · Uploaded{" "}
                {formatDateTime(latest.created_at)}
              </p>
            </>
          ) : (
            <CardDescription>No version uploaded yet.</CardDescription>
          )}
        </div>
      </CardHeader>
      {latest ? (
        <>
          <CardContent className="grid gap-1.5 text-sm">
            <span className="font-medium">Public link for the app</span>
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
              {downloading ? <Spinner label="Downloading" /> : <DownloadIcon aria-hidden="true" />}
              Download
            </Button>
          </CardFooter>
        </>
      ) : (
        <CardFooter>
          <Button variant="outline" onClick={onUpload}>
            <UploadIcon aria-hidden="true" />
            Upload Version
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
          {busy ? <Spinner label="Working" /> : children}
        </Button>
      </TooltipTrigger>
      <TooltipContent>{tooltip}</TooltipContent>
    </Tooltip>
  );
}
