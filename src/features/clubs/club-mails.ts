/**
 * The mail that verifies a club's sign-up (docs/decisions/071). Dutch, as /aanmelden is: the clubs that sign up
 * are Dutch service clubs.
 */
export function clubSignupMail(mail: { clubName: string; username: string; link: string; origin: string }): { subject: string; text: string } {
  return {
    subject: `Bevestig de aanmelding van ${mail.clubName}`,
    text: [
      `Hallo ${mail.username},`,
      '',
      `Je hebt ${mail.clubName} aangemeld voor Kerstactie. Bevestig je e-mailadres met deze link (24 uur geldig):`,
      '',
      mail.link,
      '',
      `Daarna staat jullie kerstactie klaar op ${mail.origin}. Je logt daar in als ${mail.username}, met het wachtwoord dat je bij de aanmelding koos.`,
      '',
      'Heb je niets aangemeld? Dan kun je deze mail negeren: er gebeurt niets.',
    ].join('\n'),
  };
}
