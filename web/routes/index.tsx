import { createFileRoute } from "@tanstack/react-router";

import { PageContainer } from "@/components/layout/site-layout";
import { site } from "@/lib/site";

export const Route = createFileRoute("/")({
  component: HomePage,
});

// Placeholder landing page; the full page (spec §2 "Landing page") comes in a later issue.
function HomePage() {
  return (
    <section id="home" aria-labelledby="home-title" className="bg-linear-to-b from-accent to-background">
      <PageContainer className="flex flex-col items-start gap-4 py-16 sm:py-24">
        <p className="text-sm font-semibold tracking-wide text-primary uppercase">Kerstpakketten voor het goede doel</p>
        <h1 id="home-title" className="max-w-3xl text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">
          Kerstactie <span className="block text-primary">{site.clubName}</span>
        </h1>
        <p className="max-w-2xl text-lg text-muted-foreground">
          Ook dit jaar pakken de leden van {site.clubName} kerstpakketten in voor bedrijven en particulieren in{" "}
          {site.addressLine}. Een pakket kost &euro;&nbsp;75 exclusief btw en de volledige opbrengst gaat naar
          goede doelen in de regio.
        </p>
      </PageContainer>
    </section>
  );
}
