import { getBooleanSetting, getSetting, type SettingReader } from './settings.service';

/**
 * The club's Mollie connection as the settings hold it (docs/decisions/066): online payment is offered only
 * while `online_payments` is on and a key is stored. The key is read (decrypted) only on the server.
 */
export interface OnlinePaymentSettings {
  enabled: boolean;
  /** The API key, or null while none is stored. */
  apiKey: string | null;
}

export async function onlinePaymentSettings(ctx: SettingReader & { secretKey: string }): Promise<OnlinePaymentSettings> {
  const key = String(await getSetting(ctx, 'mollie_api_key'));
  return { enabled: await getBooleanSetting(ctx, 'online_payments'), apiKey: key === '' ? null : key };
}

/** Whether a customer can pay online now: switched on, with a key. */
export const offersOnlinePayment = (settings: OnlinePaymentSettings) => settings.enabled && settings.apiKey !== null;
