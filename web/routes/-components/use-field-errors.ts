import * as React from "react";

/**
 * The messages a sign-in screen shows under its fields when something is missing before it sends: all at once,
 * focus on the first field (in `order`) that has one, each gone as soon as its field is edited.
 */
export function useFieldErrors<Key extends string>(order: readonly Key[]) {
  const [errors, setErrors] = React.useState<Partial<Record<Key, string>>>({});
  const inputs = React.useRef<Partial<Record<Key, HTMLInputElement | null>>>({});

  return {
    errors,
    /** The ref that ties field `key` to its input, for focus and the browser's own validity. */
    inputRef: (key: Key) => (element: HTMLInputElement | null) => {
      inputs.current[key] = element;
    },
    input: (key: Key) => inputs.current[key] ?? null,
    clear: (key: Key) =>
      setErrors((current) => {
        const { [key]: _, ...rest } = current;
        return rest as Partial<Record<Key, string>>;
      }),
    /** Shows `found` under the fields; true when it is empty and the form may send. */
    check(found: Partial<Record<Key, string>>): boolean {
      setErrors(found);
      const first = order.find((key) => found[key] !== undefined);
      if (first === undefined) return true;
      inputs.current[first]?.focus();
      return false;
    },
  };
}
