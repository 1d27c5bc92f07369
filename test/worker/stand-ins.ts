import { startFakeMollie } from '../support/fake-mollie';
import { startMailSinkWithHttp } from '../support/mail-sink-http';

/**
 * What every workerd lane starts beside the Worker, and the vars and secrets it binds to reach them: a real SMTP
 * server on loopback that the Worker reaches through cloudflare:sockets (docs/decisions/027, 028), read back
 * through its HTTP side door, and the Mollie stand-in (docs/decisions/066), driven through its side door.
 */
export async function workerStandIns(): Promise<Record<string, string>> {
  const mailSink = await startMailSinkWithHttp();
  const mollie = await startFakeMollie();
  return {
    SECRET_KEY: 'a'.repeat(64),
    PUBLIC_URL: 'https://kerst.example',
    ADMIN_PASSWORD: 'worker-admin-password',
    SMTP_URL: mailSink.smtp.url,
    MAIL_SINK_URL: mailSink.httpUrl,
    MOLLIE_API_URL: mollie.url,
    MOLLIE_CONTROL_URL: mollie.controlUrl,
  };
}
