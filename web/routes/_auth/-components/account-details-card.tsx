import LogOutIcon from "lucide-react/icons/log-out";
import type * as React from "react";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { useFormatDateTime, useMessages } from "@/i18n/use-messages";
import { useLogout } from "@/lib/auth";
import type { SessionUser } from "@/lib/session";

// docs/product.md §2 "Account page": username, user id, status, created, updated, group chips, Logout.
export function AccountDetailsCard({ user }: { user: SessionUser }) {
  const { logout, isPending } = useLogout();
  const t = useMessages();
  const formatDateTime = useFormatDateTime();
  const initial = (Array.from(user.username)[0] ?? "?").toUpperCase();
  return (
    <Card>
      <CardHeader className="flex items-center gap-4">
        <span
          aria-hidden="true"
          className="flex size-12 shrink-0 items-center justify-center rounded-full bg-primary text-xl font-bold text-primary-foreground"
        >
          {initial}
        </span>
        <div className="min-w-0">
          <CardTitle>
            <h2 className="truncate text-xl">{user.username}</h2>
          </CardTitle>
          <p className="truncate text-sm text-muted-foreground">{user.email ?? t.account.details.noEmail}</p>
        </div>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-3 text-sm">
          <Detail term={t.account.details.username}>{user.username}</Detail>
          <Detail term={t.account.details.userId}>{user.id}</Detail>
          <Detail term={t.common.status}>
            <Badge variant={user.status === "active" ? "success" : "secondary"}>{t.account.details.statuses[user.status]}</Badge>
          </Detail>
          <Detail term={t.common.created}>{formatDateTime(user.created_at)}</Detail>
          <Detail term={t.common.updated}>{formatDateTime(user.updated_at)}</Detail>
          <Detail term={t.account.details.groups}>
            {user.groups.length > 0 ? (
              <ul className="flex flex-wrap gap-1.5" aria-label={t.account.details.groups}>
                {user.groups.map((group) => (
                  <li key={group.id}>
                    <Badge variant="outline">{group.name}</Badge>
                  </li>
                ))}
              </ul>
            ) : (
              <span className="text-muted-foreground">{t.common.none}</span>
            )}
          </Detail>
        </dl>
      </CardContent>
      <CardFooter>
        <Button variant="outline" onClick={() => void logout()} disabled={isPending} aria-busy={isPending || undefined}>
          <LogOutIcon aria-hidden="true" />
          {t.account.details.logout}
        </Button>
      </CardFooter>
    </Card>
  );
}

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="font-medium text-muted-foreground">{term}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}
