import MailIcon from "lucide-react/icons/mail";
import MapPinIcon from "lucide-react/icons/map-pin";

import { usePageMeta } from "@/lib/page-meta";
import { useSiteIdentity } from "@/lib/site";
import { ContactForm } from "../contact-form";
import { InfoPage, TextLink } from "../info-page";
import { Island } from "../island";
import { NeedsJavaScript } from "../needs-javascript";
import { pageMeta } from "../page-meta";

// docs/product.md §2 "Info pages" Contact; the form is contact-form.tsx.

export function ContactPage() {
  const site = useSiteIdentity();
  usePageMeta(pageMeta.contact(site));

  return (
    <InfoPage
      title="Contact"
      intro={
        <p>
          Vragen over de kerstpakketten, interesse in een bestelling of iets anders? Stuur ons een bericht, dan nemen we zo snel mogelijk
          contact met je op.
        </p>
      }
    >
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
        <div className="flex flex-col gap-4">
          <NeedsJavaScript>
            <p className="font-semibold">Het contactformulier werkt alleen met JavaScript.</p>
            <p>
              Zet JavaScript aan in je browser, of mail ons rechtstreeks op{" "}
              <a className="font-medium [overflow-wrap:anywhere] underline underline-offset-4" href={`mailto:${site.email}`}>
                {site.email}
              </a>
              .
            </p>
          </NeedsJavaScript>
          <Island name="contact-form" component={ContactForm} />
        </div>
        <section aria-labelledby="contact-club-title" className="flex flex-col gap-4 rounded-xl bg-accent p-6 text-accent-foreground">
          <h2 id="contact-club-title" className="text-lg font-bold">
            {site.clubName}
          </h2>
          <p className="flex items-start gap-2.5">
            <MapPinIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
            <span>{site.addressLine}</span>
          </p>
          <p className="flex items-start gap-2.5">
            <MailIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
            <a className="font-medium break-all underline underline-offset-4 hover:no-underline" href={`mailto:${site.email}`}>
              {site.email}
            </a>
          </p>
          <p className="leading-relaxed">
            Misschien staat het antwoord al bij de <TextLink to="/faq">veelgestelde vragen</TextLink> of op de pagina{" "}
            <TextLink to="/bestelinformatie">Bestelinformatie</TextLink>.
          </p>
        </section>
      </div>
    </InfoPage>
  );
}
