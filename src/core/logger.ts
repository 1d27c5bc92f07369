/** Where the server writes what happened: the console on both runtimes, a collecting stub in tests. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const consoleLogger: Logger = {
  info: (message, fields) => console.log(fields ? `${message} ${JSON.stringify(fields)}` : message),
  error: (message, fields) => console.error(fields ? `${message} ${JSON.stringify(fields)}` : message),
};
