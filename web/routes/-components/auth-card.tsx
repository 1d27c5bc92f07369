import type * as React from "react";

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

/** The centred card of the sign-in and registration screens. */
export function AuthCard({
  title,
  description,
  children,
  footer,
}: {
  title: string;
  description?: React.ReactNode;
  children: React.ReactNode;
  footer?: React.ReactNode;
}) {
  return (
    <div className="flex w-full flex-1 items-start justify-center px-4 py-8 sm:items-center sm:py-16">
      <Card className="w-full max-w-md gap-5">
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
          </CardTitle>
          {description && <CardDescription>{description}</CardDescription>}
        </CardHeader>
        <CardContent className="grid gap-5">{children}</CardContent>
        {footer && <div className="border-t px-6 pt-5 text-center text-sm text-muted-foreground">{footer}</div>}
      </Card>
    </div>
  );
}
