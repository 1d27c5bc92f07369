import { usePageMeta } from "@/lib/page-meta";
import { formatEuro, useSiteIdentity } from "@/lib/site";
import { FaqItem } from "../faq-item";
import { InfoPage, TextLink } from "../info-page";
import { pageMeta } from "../page-meta";

// docs/product.md §2 "Info pages": 'Veelgestelde Vragen', 10 accordion questions and a link to /contact.
export function FaqPage() {
  const site = useSiteIdentity();
  usePageMeta(pageMeta.faq(site));
  const price = formatEuro(site.packagePrice);

  return (
    <InfoPage
      title="Veelgestelde Vragen"
      intro={<p>Alles wat je wilt weten over onze kerstpakketten, op een rij. Staat je vraag er niet tussen? Laat het ons weten.</p>}
    >
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_18rem] lg:items-start">
        <div className="rounded-xl border bg-card px-4 shadow-sm sm:px-6" data-slot="faq-list">
          <FaqItem name="faq" question="Wat kost een kerstpakket?">
            <p>Een kerstpakket kost € {price} per pakket, exclusief btw. De btw staat apart op de factuur die je per e-mail ontvangt.</p>
          </FaqItem>
          <FaqItem name="faq" question="Wat zit er in het pakket?">
            <p>
              Elk pakket bevat in ieder geval een stevige canvas tas en een drinkbeker, aangevuld met lekkers voor de feestdagen. De
              precieze inhoud verschilt per jaar; in de{" "}
              <TextLink to="/" hash="folder">
                folder
              </TextLink>{" "}
              zie je wat er dit jaar in zit.
            </p>
          </FaqItem>
          <FaqItem name="faq" question="Hoe kan ik een kerstpakket bestellen?">
            <p>
              Bestellen gaat via persoonlijk contact met een van onze leden. Ken je niemand van de club? Stuur ons dan een bericht via het{" "}
              <TextLink to="/contact">contactformulier</TextLink>, dan neemt een lid contact met je op om je bestelling door te nemen.
            </p>
          </FaqItem>
          <FaqItem name="faq" question="Waar gaat de opbrengst naartoe?">
            <p>
              De volledige winst gaat naar goede doelen in de regio: een kindervakantiefonds, de Voedselbank, het Rode Kruis, de Zonnebloem
              en lokale initiatieven. Onze leden doen al het werk als vrijwilliger.
            </p>
          </FaqItem>
          <FaqItem name="faq" question="Waar bezorgen jullie?">
            <p>
              We bezorgen in {site.town} en omstreken. Woon of werk je net buiten de regio? Neem even contact op, dan kijken we samen wat er
              mogelijk is.
            </p>
          </FaqItem>
          <FaqItem name="faq" question="Wanneer wordt mijn pakket bezorgd?">
            <p>
              De pakketten worden in de weken voor kerst bezorgd. Het lid dat jouw bestelling afhandelt, spreekt het precieze moment en het
              afleveradres met je af.
            </p>
          </FaqItem>
          <FaqItem name="faq" question="Hoe betaal ik?">
            <p>
              Na je bestelling ontvang je de factuur per e-mail. Daarop staan het bedrag, de btw en het rekeningnummer waarnaar je het
              bedrag kunt overmaken.
            </p>
          </FaqItem>
          <FaqItem name="faq" question="Kan ik ook grotere aantallen bestellen, bijvoorbeeld voor mijn personeel?">
            <p>
              Zeker. Veel bedrijven en verenigingen geven onze pakketten aan hun medewerkers of vrijwilligers. Geef het aantal door bij je
              bestelling; bij grotere aantallen stemmen we de bezorging samen met je af.
            </p>
          </FaqItem>
          <FaqItem name="faq" question="Wie zijn jullie eigenlijk?">
            <p>
              {site.clubName} is een serviceclub van jonge mannen tussen de 25 en 40 jaar. We komen eens per twee weken bij elkaar, voor de
              vriendschap en om samen iets te doen voor de mensen in onze regio. De kerstactie is daar elk jaar een mooi voorbeeld van.
            </p>
          </FaqItem>
          <FaqItem name="faq" question="Ik ben lid van de club. Hoe geef ik een bestelling door?">
            <p>
              Gebruik het <TextLink to="/order">bestelformulier</TextLink> met het wachtwoord dat je van de club hebt gekregen. De
              bestelling komt dan meteen op de juiste plek terecht, en de klant krijgt een bevestiging per e-mail.
            </p>
          </FaqItem>
        </div>

        <section aria-labelledby="faq-more-title" className="flex flex-col gap-3 rounded-xl bg-accent p-6 text-accent-foreground">
          <h2 id="faq-more-title" className="text-lg font-bold">
            Staat je vraag er niet bij?
          </h2>
          <p className="leading-relaxed">
            Stel hem gerust via het contactformulier. We reageren zo snel mogelijk, meestal binnen een paar dagen.
          </p>
          <TextLink to="/contact" className="self-start">
            Naar het contactformulier
          </TextLink>
          <p className="leading-relaxed">
            Meer over het bestelproces lees je op de pagina <TextLink to="/bestelinformatie">Bestelinformatie</TextLink>.
          </p>
        </section>
      </div>
    </InfoPage>
  );
}
