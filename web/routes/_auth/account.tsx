import { createFileRoute } from "@tanstack/react-router";
import ShieldAlertIcon from "lucide-react/icons/shield-alert";

import { PageContainer } from "@/components/layout/site-layout";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { PageSpinner } from "@/components/ui/spinner";
import { useMessages } from "@/i18n/use-messages";
import { useSession } from "@/lib/auth";
import { AccountDetailsCard } from "./-components/account-details-card";
import { ChangePasswordCard } from "./-components/change-password-card";
import { LanguageCard } from "./-components/language-card";
import { SessionsCard } from "./-components/sessions-card";
import { TwoFactorCard } from "./-components/two-factor-card";
import { UpdateEmailCard } from "./-components/update-email-card";

// docs/product.md §2 "Account page": 'My Account' with the user details, 'Update Email', 'Change Password'
// and two-factor authentication cards, and the signed-in devices (docs/decisions/012). Guarded by the _auth layout.
export const Route = createFileRoute("/_auth/account")({
  component: AccountPage,
});

function AccountPage() {
  const { user, isPending, twoFactorSetupRequired } = useSession();
  const t = useMessages();
  if (isPending) return <PageSpinner />;
  return (
    <PageContainer className="flex flex-col gap-6">
      <h1 className="text-3xl font-bold tracking-tight">{t.account.title}</h1>
      {twoFactorSetupRequired && (
        <Alert variant="info">
          <ShieldAlertIcon aria-hidden="true" />
          <AlertTitle className="line-clamp-none">{t.account.twoFactorRequired.title}</AlertTitle>
          <AlertDescription>{t.account.twoFactorRequired.text}</AlertDescription>
        </Alert>
      )}
      {user ? (
        <div className="grid items-start gap-6 lg:grid-cols-2">
          <AccountDetailsCard user={user} />
          <TwoFactorCard user={user} />
          <UpdateEmailCard user={user} />
          <ChangePasswordCard username={user.username} />
          <LanguageCard locale={user.locale} />
          <div className="lg:col-span-2">
            <SessionsCard />
          </div>
        </div>
      ) : (
        <p className="text-muted-foreground">{t.account.notLoggedIn}</p>
      )}
    </PageContainer>
  );
}
