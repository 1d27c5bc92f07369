import CookieIcon from "lucide-react/icons/cookie";
import DatabaseIcon from "lucide-react/icons/database";
import HardDriveIcon from "lucide-react/icons/hard-drive";
import MapPinIcon from "lucide-react/icons/map-pin";
import ShieldCheckIcon from "lucide-react/icons/shield-check";
import UserRoundCheckIcon from "lucide-react/icons/user-round-check";

import { usePageMeta } from "@/lib/page-meta";
import { useSiteIdentity } from "@/lib/site";
import { InfoPage, InfoSection, TextLink } from "../info-page";
import { pageMeta } from "../page-meta";

// docs/product.md §2 "Info pages": Privacy & Cookies. Describes what this site really stores:
// the session cookie, the order form's browser storage, orders and contact messages, the address search.
const code = "rounded bg-muted px-1.5 py-0.5 font-mono text-[0.9em] break-all";

export function PrivacyPage() {
  const site = useSiteIdentity();
  usePageMeta(pageMeta.privacy(site));

  return (
    <InfoPage
      title="Privacy & Cookies"
      intro={<p>We gaan zorgvuldig om met je gegevens. Op deze pagina lees je precies wat deze website bewaart, waarom, en hoe lang.</p>}
    >
      <InfoSection id="kort" title="In het kort" icon={<ShieldCheckIcon />}>
        <ul className="list-disc space-y-1.5 pl-5">
          <li>Geen tracking-, analyse- of advertentiecookies, en geen cookiebanner nodig.</li>
          <li>Alleen wie inlogt (leden en beheerders) krijgt één functioneel sessiecookie.</li>
          <li>Je gegevens gebruiken we alleen voor je bestelling of je vraag, en we verkopen of delen ze niet.</li>
          <li>Deze website laadt niets van andere websites: geen externe lettertypen, scripts of afbeeldingen.</li>
        </ul>
      </InfoSection>

      <InfoSection id="verantwoordelijke" title="Wie is verantwoordelijk?" icon={<UserRoundCheckIcon />}>
        <p>
          Deze website is van {site.clubName}, {site.addressLine}. Vragen over je gegevens stel je via{" "}
          <a className="font-medium break-all text-primary underline underline-offset-4 hover:no-underline" href={`mailto:${site.email}`}>
            {site.email}
          </a>{" "}
          of het <TextLink to="/contact">contactformulier</TextLink>.
        </p>
      </InfoSection>

      <InfoSection id="gegevens" title="Welke gegevens bewaren we?" icon={<DatabaseIcon />}>
        <h3 className="font-semibold">Contactformulier</h3>
        <p>
          Stuur je een bericht, dan bewaren we je naam, e-mailadres, onderwerp en bericht. Het bericht wordt ook per e-mail doorgestuurd
          naar het adres van de club. We gebruiken het alleen om je vraag te beantwoorden.
        </p>
        <h3 className="font-semibold">Bestellingen</h3>
        <p>
          Bij een bestelling bewaren we naam, e-mailadres, telefoonnummer, afleveradres, postcode, plaats, het aantal pakketten, je
          opmerkingen en welk lid de bestelling heeft opgenomen. Die gegevens hebben we nodig om te bezorgen en om de factuur te sturen; je
          ontvangt een bevestiging en later de factuur per e-mail. Facturen bewaren we zo lang als de wet voor de administratie voorschrijft
          (zeven jaar).
        </p>
        <h3 className="font-semibold">Misbruik voorkomen</h3>
        <p>
          Om spam en misbruik tegen te gaan, houden we kort bij hoe vaak er vanaf een IP-adres formulieren worden verstuurd. Deze tellers
          verlopen vanzelf binnen een uur.
        </p>
      </InfoSection>

      <InfoSection id="cookies" title="Cookies" icon={<CookieIcon />}>
        <p>
          Deze website gebruikt één cookie: <code className={code}>kerstactie_session</code>. Dat wordt alleen geplaatst als je inlogt als
          lid of beheerder, en onthoudt dat je bent ingelogd. Het cookie is niet leesbaar voor scripts, bevat geen persoonsgegevens en
          verdwijnt als je uitlogt of het 30 dagen niet gebruikt.
        </p>
        <p>Bezoek je alleen de openbare pagina's, dan worden er geen cookies geplaatst.</p>
      </InfoSection>

      <InfoSection id="browseropslag" title="Opslag in je browser" icon={<HardDriveIcon />}>
        <p>
          Het bestelformulier voor leden onthoudt na het wachtwoord voor welk lid je bestelt, zodat je het wachtwoord niet steeds opnieuw
          hoeft in te voeren. Daarvoor bewaart het in de lokale opslag van je browser <code className={code}>selectedTablerId</code> en{" "}
          <code className={code}>selectedTablerName</code>. Deze gegevens blijven op je eigen apparaat en worden gewist met de knop 'Terug'
          of 'Nieuwe Bestelling'.
        </p>
      </InfoSection>

      <InfoSection id="adres-zoeken" title="Adres zoeken" icon={<MapPinIcon />}>
        <p>
          Het bestelformulier helpt bij het invullen van het adres. De tekst die je typt gaat naar onze eigen server, die het adres opzoekt
          in de PDOK Locatieserver van het Kadaster (de Basisregistratie Adressen en Gebouwen), of, als de club dat zo heeft ingesteld, in
          een adreszoekdienst op basis van OpenStreetMap; onder het adresveld staat welke. Je browser maakt daarvoor geen verbinding met
          andere partijen, en we sturen alleen de zoektekst door, niet je IP-adres. Om die dienst niet onnodig te belasten, onthoudt onze
          server zoekresultaten hooguit een dag.
        </p>
      </InfoSection>

      <InfoSection id="rechten" title="Jouw rechten" icon={<ShieldCheckIcon />}>
        <p>
          Je mag altijd vragen welke gegevens we van je hebben, en ze laten verbeteren of verwijderen, voor zover we ze niet wettelijk
          moeten bewaren. Stuur daarvoor een bericht via het <TextLink to="/contact">contactformulier</TextLink>. Ben je niet tevreden over
          hoe we met je gegevens omgaan, dan kun je een klacht indienen bij de Autoriteit Persoonsgegevens.
        </p>
      </InfoSection>
    </InfoPage>
  );
}
