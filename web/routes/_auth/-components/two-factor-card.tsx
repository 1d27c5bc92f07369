import CopyIcon from "lucide-react/icons/copy";
import DownloadIcon from "lucide-react/icons/download";
import ShieldCheckIcon from "lucide-react/icons/shield-check";
import ShieldOffIcon from "lucide-react/icons/shield-off";
import * as React from "react";

import { errorFeedback, type Feedback, FormFeedback, successFeedback } from "@/components/form-feedback";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Modal } from "@/components/ui/modal";
import { useSnackbar } from "@/components/ui/snackbar";
import { Spinner } from "@/components/ui/spinner";
import { useErrorText, useMessages } from "@/i18n/use-messages";
import { useTwoFactorDisable, useTwoFactorSetup, useTwoFactorVerify } from "@/lib/auth";
import { useAppForm, useFormFeedback } from "@/lib/form";
import type { SessionUser } from "@/lib/session";
import { codeSchema } from "#src/features/two-factor/two-factor.schemas";

// docs/product.md §4 "Two-factor": disabled → setup started (QR code shown) → a code is verified → enabled.
// When enabled, 'Disable 2FA' opens a dialog that needs the current code. docs/architecture.md §3: enabling
// also returns 10 single-use recovery codes, shown once.

const CODE_LENGTH = 6; // docs/product.md §9
const RECOVERY_CODE_LENGTH = 9; // 'ABCD-EFGH'

type SetupData = { secret: string; qr_code: string; otpauth_url: string };

export function TwoFactorCard({ user }: { user: SessionUser }) {
  const [setup, setSetup] = React.useState<SetupData | null>(null);
  const [recoveryCodes, setRecoveryCodes] = React.useState<string[] | null>(null);
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);
  const t = useMessages();

  let body: React.ReactNode;
  if (recoveryCodes) {
    // Shown before the "enabled" state, which the refetched user already reports.
    body = <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />;
  } else if (user.two_factor_enabled) {
    body = <EnabledState onDisabled={() => setFeedback(successFeedback(t.account.twoFactor.disabledFeedback))} />;
  } else if (setup) {
    body = (
      <SetupStep
        setup={setup}
        onCancel={() => setSetup(null)}
        onVerified={(codes) => {
          setSetup(null);
          setRecoveryCodes(codes);
          setFeedback(successFeedback(t.account.twoFactor.enabledFeedback));
        }}
      />
    );
  } else {
    body = (
      <DisabledState
        onSetupStarted={(data) => {
          setFeedback(null);
          setSetup(data);
        }}
        onError={(text) => setFeedback(errorFeedback(text))}
      />
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          <h2 className="text-lg">{t.account.twoFactor.title}</h2>
          {user.two_factor_enabled ? (
            <Badge variant="success">{t.account.twoFactor.enabled}</Badge>
          ) : (
            <Badge variant="secondary">{t.account.twoFactor.disabled}</Badge>
          )}
        </CardTitle>
        <CardDescription>{t.account.twoFactor.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <FormFeedback feedback={feedback} focusOnShow={recoveryCodes !== null} />
        {body}
      </CardContent>
    </Card>
  );
}

function DisabledState({ onSetupStarted, onError }: { onSetupStarted: (setup: SetupData) => void; onError: (text: string) => void }) {
  const startSetup = useTwoFactorSetup();
  const t = useMessages();
  const errorText = useErrorText();

  async function handleEnable() {
    try {
      const result = await startSetup.mutateAsync();
      onSetupStarted({ secret: result.secret, qr_code: result.qr_code, otpauth_url: result.otpauth_url });
    } catch (error) {
      onError(errorText(error, t.account.twoFactor.startFailed));
    }
  }

  return (
    <div className="grid gap-4">
      <p className="text-sm">{t.account.twoFactor.offText}</p>
      <Button
        className="justify-self-start"
        onClick={handleEnable}
        disabled={startSetup.isPending}
        aria-busy={startSetup.isPending || undefined}
      >
        {startSetup.isPending ? <Spinner label={t.account.twoFactor.starting} /> : <ShieldCheckIcon aria-hidden="true" />}
        {t.account.twoFactor.enable}
      </Button>
    </div>
  );
}

function SetupStep({
  setup,
  onCancel,
  onVerified,
}: {
  setup: SetupData;
  onCancel: () => void;
  onVerified: (recoveryCodes: string[]) => void;
}) {
  const verify = useTwoFactorVerify();
  const t = useMessages();
  const { feedback, onSubmitInvalid, attempt } = useFormFeedback();
  const form = useAppForm({
    defaultValues: { code: "" },
    validators: { onSubmit: codeSchema },
    onSubmitInvalid,
    onSubmit: ({ value }) =>
      attempt(async () => {
        const result = await verify.mutateAsync({ code: value.code.trim() });
        onVerified(result.recovery_codes);
        return null;
      }, t.account.twoFactor.verifyFailed),
  });

  return (
    <div className="grid gap-4">
      <ol className="grid list-decimal gap-1 pl-5 text-sm">
        <li>{t.account.twoFactor.stepScan}</li>
        <li>{t.account.twoFactor.stepType}</li>
      </ol>
      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        <img
          src={setup.qr_code}
          alt={t.account.twoFactor.qrAlt}
          width={176}
          height={176}
          className="size-44 shrink-0 rounded-md border bg-white p-2"
        />
        <div className="grid w-full min-w-0 gap-1.5">
          <p className="text-sm font-medium">{t.account.twoFactor.manualKey}</p>
          <code data-testid="totp-secret" className="rounded-md bg-muted px-3 py-2 font-mono text-sm break-all select-all">
            {setup.secret}
          </code>
          <p className="text-xs text-muted-foreground">{t.account.twoFactor.keyHint}</p>
        </div>
      </div>
      <form.AppForm>
        <form.Form className="grid gap-4" aria-label={t.account.twoFactor.verifyForm}>
          <FormFeedback feedback={feedback} />
          <form.AppField name="code">
            {(field) => (
              <field.TextField
                label={t.account.twoFactor.codeLabel}
                required
                autoFocus
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={CODE_LENGTH}
                placeholder="123456"
                className="max-w-40 font-mono tracking-widest"
              />
            )}
          </form.AppField>
          <div className="flex flex-wrap gap-2">
            <form.SubmitButton busyLabel={t.account.twoFactor.verifying}>{t.account.twoFactor.verify}</form.SubmitButton>
            <form.CancelButton onClick={onCancel}>{t.common.cancel}</form.CancelButton>
          </div>
        </form.Form>
      </form.AppForm>
    </div>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { showSnackbar } = useSnackbar();
  const t = useMessages();
  const text = codes.join("\n");

  async function handleCopy() {
    try {
      await navigator.clipboard.writeText(text);
      showSnackbar(t.account.twoFactor.recoveryCopied, "success");
    } catch {
      showSnackbar(t.account.twoFactor.recoveryCopyFailed, "error");
    }
  }

  function handleDownload() {
    const url = URL.createObjectURL(new Blob([`${t.account.twoFactor.recoveryFileHeading}\n\n${text}\n`], { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = t.account.twoFactor.recoveryFileName;
    document.body.append(link);
    link.click();
    link.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  return (
    <div className="grid gap-4">
      <div className="grid gap-1">
        <h3 className="font-semibold">{t.account.twoFactor.recoveryTitle}</h3>
        <p className="text-sm text-muted-foreground">{t.account.twoFactor.recoveryText}</p>
      </div>
      <ul
        aria-label={t.account.twoFactor.recoveryTitle}
        data-testid="recovery-codes"
        className="grid grid-cols-2 gap-2 rounded-md bg-muted p-3 font-mono text-sm select-all"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" onClick={handleCopy}>
          <CopyIcon aria-hidden="true" />
          {t.account.twoFactor.copy}
        </Button>
        <Button type="button" variant="outline" onClick={handleDownload}>
          <DownloadIcon aria-hidden="true" />
          {t.account.twoFactor.download}
        </Button>
        <Button type="button" onClick={onDone}>
          {t.account.twoFactor.savedThem}
        </Button>
      </div>
    </div>
  );
}

function EnabledState({ onDisabled }: { onDisabled: () => void }) {
  const disable = useTwoFactorDisable();
  const t = useMessages();
  const [open, setOpen] = React.useState(false);
  const [useRecoveryCode, setUseRecoveryCode] = React.useState(false);
  const { feedback, setFeedback, onSubmitInvalid, attempt } = useFormFeedback();
  const inputRef = React.useRef<HTMLInputElement>(null);
  const form = useAppForm({
    defaultValues: { code: "" },
    validators: { onSubmit: codeSchema },
    onSubmitInvalid,
    onSubmit: ({ value, formApi }) =>
      attempt(async () => {
        await disable.mutateAsync({ code: value.code.trim() });
        setOpen(false);
        formApi.reset();
        onDisabled();
        return null;
      }, t.account.twoFactor.disableFailed),
  });

  function handleOpenChange(next: boolean) {
    if (form.state.isSubmitting) return;
    setOpen(next);
    if (!next) {
      form.reset();
      setUseRecoveryCode(false);
      setFeedback(null);
    }
  }

  // Someone who lost the authenticator app can still turn 2FA off with a recovery code.
  function switchKind() {
    setUseRecoveryCode((current) => !current);
    form.reset();
    setFeedback(null);
    inputRef.current?.focus();
  }

  return (
    <div className="grid gap-4">
      <p className="text-sm">{t.account.twoFactor.onText}</p>
      <Button variant="outline" className="justify-self-start" onClick={() => setOpen(true)}>
        <ShieldOffIcon aria-hidden="true" />
        {t.account.twoFactor.disable}
      </Button>
      <Modal
        closeLabel={t.common.close}
        open={open}
        onOpenChange={handleOpenChange}
        title={t.account.twoFactor.disable}
        description={t.account.twoFactor.disableDescription}
      >
        <form.AppForm>
          <form.Form className="grid gap-4" aria-label={t.account.twoFactor.disable}>
            <FormFeedback feedback={feedback} />
            <form.AppField name="code">
              {(field) => (
                <field.TextField
                  ref={inputRef}
                  label={useRecoveryCode ? t.account.twoFactor.recoveryCodeLabel : t.account.twoFactor.codeLabel}
                  required
                  autoFocus
                  autoComplete={useRecoveryCode ? "off" : "one-time-code"}
                  inputMode={useRecoveryCode ? "text" : "numeric"}
                  maxLength={useRecoveryCode ? RECOVERY_CODE_LENGTH : CODE_LENGTH}
                  placeholder={useRecoveryCode ? "ABCD-EFGH" : "123456"}
                  className="font-mono tracking-widest"
                  labelAction={
                    <Button type="button" variant="link" className="h-auto px-0 text-xs" onClick={switchKind}>
                      {useRecoveryCode ? t.account.twoFactor.useAuthenticationCode : t.account.twoFactor.useRecoveryCode}
                    </Button>
                  }
                />
              )}
            </form.AppField>
            <form.Actions
              onCancel={() => handleOpenChange(false)}
              submitLabel={t.account.twoFactor.disable}
              submitVariant="destructive"
              busyLabel={t.account.twoFactor.disabling}
              cancelLabel={t.common.cancel}
            />
          </form.Form>
        </form.AppForm>
      </Modal>
    </div>
  );
}
