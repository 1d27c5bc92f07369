import CreditCardIcon from "lucide-react/icons/credit-card";
import LifeBuoyIcon from "lucide-react/icons/life-buoy";
import TruckIcon from "lucide-react/icons/truck";

import { usePageMeta } from "@/lib/page-meta";
import { formatEuro, useSiteIdentity } from "@/lib/site";
import { InfoPage, InfoSection, TextLink } from "../info-page";
import { pageMeta } from "../page-meta";

// docs/product.md §2 "Info pages": 'Bestelinformatie', a 4-step process (contact, personal contact,
// confirmation, delivery) plus delivery, payment and support sections.
export function OrderInfoPage() {
  const site = useSiteIdentity();
  usePageMeta(pageMeta.orderInfo(site));

  const steps = [
    {
      title: "Contact",
      text: (
        <>
          Laat ons weten dat je interesse hebt: spreek een van onze leden aan of stuur een bericht via het{" "}
          <TextLink to="/contact">contactformulier</TextLink>.
        </>
      ),
    },
    {
      title: "Persoonlijk contact",
      text: "Een lid van de club neemt contact met je op. Samen bespreken jullie het aantal pakketten, het afleveradres en eventuele wensen.",
    },
    {
      title: "Bevestiging",
      text: "Je ontvangt een bevestiging van je bestelling met een bestelnummer. De factuur volgt per e-mail.",
    },
    {
      title: "Bezorging",
      text: `In de weken voor kerst bezorgen we de pakketten in ${site.town} en omstreken, op het moment dat je met ons hebt afgesproken.`,
    },
  ];

  return (
    <InfoPage
      title="Bestelinformatie"
      intro={
        <p>
          Een kerstpakket bestellen bij {site.clubName} gaat persoonlijk. Zo werkt het, van het eerste contact tot het pakket bij de deur.
        </p>
      }
    >
      <section aria-labelledby="stappen-title" className="flex flex-col gap-5">
        <h2 id="stappen-title" className="text-xl font-bold tracking-tight sm:text-2xl">
          In vier stappen
        </h2>
        <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-slot="order-steps">
          {steps.map((step, index) => (
            <li key={step.title} className="flex flex-col gap-3 rounded-xl border bg-card p-5 shadow-sm">
              <span
                aria-hidden="true"
                className="flex size-10 items-center justify-center rounded-full bg-primary text-lg font-bold text-primary-foreground"
              >
                {index + 1}
              </span>
              <h3 className="text-lg font-semibold">
                <span className="sr-only">Stap {index + 1}: </span>
                {step.title}
              </h3>
              <p className="leading-relaxed text-foreground/85">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <div className="grid gap-10 lg:grid-cols-3">
        <InfoSection id="bezorging" title="Bezorging" icon={<TruckIcon />}>
          <p>
            We bezorgen in {site.town} en omstreken. Onze leden brengen de pakketten zelf rond, meestal in de weken voor kerst. Het precieze
            moment spreken we met je af.
          </p>
          <p>Bestel je voor meerdere adressen of ligt het adres buiten de regio? Geef het door, dan zoeken we samen een oplossing.</p>
        </InfoSection>
        <InfoSection id="betaling" title="Betaling" icon={<CreditCardIcon />}>
          <p>
            Een pakket kost € {formatEuro(site.packagePrice)} per pakket, exclusief btw. Je ontvangt de factuur per e-mail, met daarop het
            bedrag, de btw en het rekeningnummer.
          </p>
          <p>Alle winst gaat naar goede doelen in de regio; onze leden doen het werk als vrijwilliger.</p>
        </InfoSection>
        <InfoSection id="ondersteuning" title="Ondersteuning" icon={<LifeBuoyIcon />}>
          <p>
            Vragen over je bestelling, de factuur of de bezorging? Neem contact op met het lid dat je bestelling afhandelt, of stuur een
            bericht via het <TextLink to="/contact">contactformulier</TextLink>.
          </p>
          <p>
            Veel antwoorden vind je ook bij de <TextLink to="/faq">veelgestelde vragen</TextLink>.
          </p>
        </InfoSection>
      </div>
    </InfoPage>
  );
}
