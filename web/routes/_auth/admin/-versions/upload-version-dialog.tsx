import { useStore } from "@tanstack/react-form";
import { useQueryClient } from "@tanstack/react-query";
import UploadIcon from "lucide-react/icons/upload";
import * as React from "react";

import { errorFeedback, FormFeedback } from "@/components/form-feedback";
import { TextField } from "@/components/text-field";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/modal";
import { Progress } from "@/components/ui/progress";
import { useSnackbar } from "@/components/ui/snackbar";
import { useLocale, useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { useAppForm, useFormFeedback } from "@/lib/form";
import { UploadNetworkError, uploadWithProgress } from "@/lib/upload";
import { uploadLimitBytes } from "#src/features/versions/upload-limit";
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
  const [progress, setProgress] = React.useState<number | null>(null);
  const { feedback, setFeedback, onSubmitInvalid } = useFormFeedback();
  const abortRef = React.useRef<AbortController | null>(null);
  const id = React.useId();
  const formId = `${id}-form`;

  // Closing the dialog (or leaving the page) while a file is on its way stops the upload.
  React.useEffect(() => () => abortRef.current?.abort(), []);

  function fileProblem(chosen: File): string | undefined {
    if (!isApkName(chosen.name)) return t.versions.upload.invalidApk;
    if (maxUploadMb !== null && chosen.size > uploadLimitBytes(maxUploadMb)) return t.versions.upload.tooLarge(maxUploadMb);
    return undefined;
  }

  const form = useAppForm({
    defaultValues: { version_name: "", version_code: "", apk_file: null as File | null },
    validators: {
      onSubmit: ({ value }) => {
        const problem = value.apk_file && fileProblem(value.apk_file);
        if (problem) return problem;
        if (!value.version_name.trim() || !value.version_code.trim() || !value.apk_file) return t.versions.upload.fillAllFields;
        return undefined;
      },
    },
    onSubmitInvalid,
    onSubmit: async ({ value }) => {
      const file = value.apk_file;
      if (!file) return;
      setFeedback(null);
      // The fields go first, so the server can refuse a taken version code before storing the file.
      const body = new FormData();
      body.append("version_name", value.version_name.trim());
      body.append("version_code", value.version_code.trim());
      body.append("apk_file", file, file.name);

      const controller = new AbortController();
      abortRef.current = controller;
      setProgress(0);
      try {
        const { status, body: answer } = await uploadWithProgress(UPLOAD_URL, body, {
          onProgress: setProgress,
          signal: controller.signal,
        });
        const ok = status >= 200 && status < 300 && (answer as { success?: unknown } | null)?.success === true;
        if (!ok) {
          // A 413 without our JSON comes from a proxy or Cloudflare's edge, before the app saw the file.
          const tooLarge = status === 413 && answer === null && maxUploadMb !== null;
          setFeedback(errorFeedback(tooLarge ? t.versions.upload.tooLarge(maxUploadMb) : uploadErrorText(answer, t, locale)));
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
    },
  });
  const uploading = useStore(form.store, (state) => state.isSubmitting);
  const file = useStore(form.store, (state) => state.values.apk_file);

  function close(next: boolean) {
    if (next) return onOpenChange(true);
    if (abortRef.current) {
      abortRef.current.abort();
      showSnackbar(t.versions.upload.cancelled, "info");
    }
    onOpenChange(false);
  }

  return (
    <form.AppForm>
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
            <form.SubmitButton form={formId} busyLabel={t.versions.upload.uploading} icon={<UploadIcon aria-hidden="true" />}>
              {t.versions.upload.submit}
            </form.SubmitButton>
          </>
        }
      >
        <form.Form id={formId} className="grid gap-4" noValidate aria-label={t.versions.upload.title}>
          <FormFeedback feedback={feedback} />
          <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_10rem]">
            <form.AppField name="version_name">
              {(field) => (
                <field.TextField
                  label={t.versions.upload.versionName}
                  placeholder={t.versions.upload.versionNamePlaceholder}
                  autoComplete="off"
                  readOnly={uploading}
                  maxLength={100}
                />
              )}
            </form.AppField>
            <form.AppField name="version_code">
              {(field) => (
                <field.TextField
                  label={t.versions.upload.versionCode}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  step={1}
                  placeholder={t.versions.upload.versionCodePlaceholder}
                  readOnly={uploading}
                />
              )}
            </form.AppField>
          </div>
          <form.AppField name="apk_file">
            {(field) => (
              // A file input keeps its own value: the field only learns which file was chosen.
              <TextField
                label={t.versions.upload.apkFile}
                name={field.name}
                type="file"
                accept={APK_ACCEPT}
                onChange={(event) => {
                  const chosen = event.target.files?.[0] ?? null;
                  field.handleChange(chosen);
                  const problem = chosen && fileProblem(chosen);
                  setFeedback(problem ? errorFeedback(problem) : null);
                }}
                disabled={uploading}
                className="h-auto py-1.5 file:mr-3 file:rounded-md file:bg-secondary file:px-3"
                hint={
                  [
                    file && `${file.name} · ${formatBytes(file.size, locale)}`,
                    maxUploadMb !== null && t.versions.upload.maximumSize(maxUploadMb),
                  ]
                    .filter(Boolean)
                    .join(" · ") || undefined
                }
              />
            )}
          </form.AppField>
          {progress !== null && (
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
        </form.Form>
      </Modal>
    </form.AppForm>
  );
}
