// docs/decisions/012 sessions list: a session's device in words ('Chrome on Android') from its User-Agent. A few
// patterns cover the browsers people use; anything else is 'Unknown browser', never a wrong guess.

const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/SamsungBrowser\//, "Samsung Internet"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/Chrome\/|CriOS\/|Chromium\//, "Chrome"],
  [/Version\/[\d.]+.*Safari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/Android/, "Android"],
  [/iPhone|iPad|iPod/, "iOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

/** The words around the names, in the user's language (docs/decisions/011: the account catalogue's). */
export interface DeviceWords {
  unknownDevice: string;
  unknownBrowser: string;
  browserOn: (browser: string, system: string) => string;
}

export function describeDevice(userAgent: string, words: DeviceWords): string {
  if (!userAgent.trim()) return words.unknownDevice;
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? words.unknownBrowser;
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  return system ? words.browserOn(browser, system) : browser;
}
