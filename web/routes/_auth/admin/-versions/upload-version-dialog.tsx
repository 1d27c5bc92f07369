import { useQueryClient } from "@tanstack/react-query";
import UploadIcon from "lucide-react/icons/upload";
import * as React from "react";

import { errorFeedback, type Feedback, FormFeedback } from "@/components/form-feedback";
import { TextField } from "@/components/text-field";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/modal";
import { Progress } from "@/components/ui/progress";
import { useSnackbar } from "@/components/ui/snackbar";
import { Spinner } from "@/components/ui/spinner";
import { useLocale, useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { UploadNetworkError, uploadWithProgress } from "@/lib/upload";
import { uploadLimitBytes } from "../../../../../src/features/versions/upload-limit";
import { APK_ACCEPT, formatBytes, isApkName, UPLOAD_URL, uploadErrorText } from "./version-utils";

// docs/product.md §2 "Version Management" upload dialog; §5 "Version upload" checks; §7 multipart upload
// (apk_file, version_code, version_name) whose failure text is the answer's `message`; §8 texts.
// The file goes through XMLHttpRequest so a progress bar can show how much has been sent.
// The server's MAX_UPLOAD_MB (from the versions list; null until it has loaded) is shown, and a larger
// file is refused here, before sending it: Cloudflare's edge would refuse it with a page of its own.

export function UploadVersionDialog({
  open,
  onOpenChange,
  maxUploadMb,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  maxUploadMb: number | null;
}) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const t = useMessages();
  const locale = useLocale();
  const [name, setName] = React.useState("");
  const [code, setCode] = React.useState("");
  const [file, setFile] = React.useState<File | null>(null);
  const [progress, setProgress] = React.useState<number | null>(null);
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);
  const abortRef = React.useRef<AbortController | null>(null);
  const id = React.useId();
  const formId = `${id}-form`;
  const uploading = progress !== null;

  // Closing the dialog (or leaving the page) while a file is on its way stops the upload.
  React.useEffect(() => () => abortRef.current?.abort(), []);

  function chooseFile(event: React.ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0] ?? null;
    setFile(chosen);
    setFeedback(chosen ? fileProblem(chosen) : null);
  }

  function fileProblem(chosen: File): Feedback | null {
    if (!isApkName(chosen.name)) return errorFeedback(t.versions.upload.invalidApk);
    if (maxUploadMb !== null && chosen.size > uploadLimitBytes(maxUploadMb)) return errorFeedback(t.versions.upload.tooLarge(maxUploadMb));
    return null;
  }

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (uploading) return;
    setFeedback(null);
    const problem = file && fileProblem(file);
    if (problem) return setFeedback(problem);
    if (!name.trim() || !code.trim() || !file) return setFeedback(errorFeedback(t.versions.upload.fillAllFields));

    // The fields go first, so the server can refuse a taken version code before storing the file.
    const form = new FormData();
    form.append("version_name", name.trim());
    form.append("version_code", code.trim());
    form.append("apk_file", file, file.name);

    const controller = new AbortController();
    abortRef.current = controller;
    setProgress(0);
    try {
      const { status, body } = await uploadWithProgress(UPLOAD_URL, form, {
        onProgress: setProgress,
        signal: controller.signal,
      });
      const ok = status >= 200 && status < 300 && (body as { success?: unknown } | null)?.success === true;
      if (!ok) {
        // A 413 without our JSON comes from a proxy or Cloudflare's edge, before the app saw the file.
        const tooLarge = status === 413 && body === null && maxUploadMb !== null;
        setFeedback(errorFeedback(tooLarge ? t.versions.upload.tooLarge(maxUploadMb) : uploadErrorText(body, t, locale)));
        return;
      }
      showSnackbar(t.versions.upload.succeeded, "success");
      await queryClient.invalidateQueries({ queryKey: trpc.versions.list.queryKey() });
      onOpenChange(false);
    } catch (error) {
      if (error instanceof UploadNetworkError && error.aborted) return;
      console.error(error);
      setFeedback(errorFeedback(t.versions.upload.failed));
    } finally {
      if (abortRef.current === controller) abortRef.current = null;
      setProgress(null);
    }
  }

  function close(next: boolean) {
    if (next) return onOpenChange(true);
    if (abortRef.current) {
      abortRef.current.abort();
      showSnackbar(t.versions.upload.cancelled, "info");
    }
    onOpenChange(false);
  }

  return (
    <Modal
      closeLabel={t.common.close}
      open={open}
      onOpenChange={close}
      title={t.versions.upload.title}
      description={t.versions.upload.description}
      footer={
        <>
          <Button type="button" variant="outline" onClick={() => close(false)}>
            {t.common.cancel}
          </Button>
          <Button type="submit" form={formId} disabled={uploading} aria-busy={uploading || undefined}>
            {uploading ? <Spinner label={t.versions.upload.uploading} /> : <UploadIcon aria-hidden="true" />}
            {t.versions.upload.submit}
          </Button>
        </>
      }
    >
      <form id={formId} className="grid gap-4" onSubmit={handleSubmit} noValidate aria-label={t.versions.upload.title}>
        <FormFeedback feedback={feedback} />
        <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_10rem]">
          <TextField
            label={t.versions.upload.versionName}
            name="version_name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder={t.versions.upload.versionNamePlaceholder}
            autoComplete="off"
            readOnly={uploading}
            maxLength={100}
          />
          <TextField
            label={t.versions.upload.versionCode}
            name="version_code"
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            placeholder={t.versions.upload.versionCodePlaceholder}
            readOnly={uploading}
          />
        </div>
        <TextField
          label={t.versions.upload.apkFile}
          name="apk_file"
          type="file"
          accept={APK_ACCEPT}
          onChange={chooseFile}
          disabled={uploading}
          className="h-auto py-1.5 file:mr-3 file:rounded-md file:bg-secondary file:px-3"
          hint={
            [file && `${file.name} · ${formatBytes(file.size, locale)}`, maxUploadMb !== null && t.versions.upload.maximumSize(maxUploadMb)]
              .filter(Boolean)
              .join(" · ") || undefined
          }
        />
        {uploading && (
          <div className="grid gap-2" data-slot="upload-progress">
            <div className="flex items-center justify-between text-sm">
              <span className="font-medium">
                {progress < 100 ? t.versions.upload.progressUploading : t.versions.upload.progressProcessing}
              </span>
              <span className="tabular-nums text-muted-foreground" aria-hidden="true">
                {progress}%
              </span>
            </div>
            <Progress value={progress} aria-label={t.versions.upload.progressLabel} aria-valuetext={`${progress}%`} />
          </div>
        )}
      </form>
    </Modal>
  );
}
