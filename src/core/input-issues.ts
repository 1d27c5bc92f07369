import type * as z from 'zod';
import type { ErrorCode } from './error-codes';

// docs/decisions/062: a request that fails its zod schema is refused with a code naming the rule that failed
// (FIELD_REQUIRED, FIELD_TOO_LONG, …) and the field, like a payment API's `param`; a schema's own text may carry
// a code of its own (refusalText). Browser-safe, so the forms that check with the server's schemas get the same
// code as the server would answer.

type Issue = z.core.$ZodIssue;
type RawIssue = z.core.$ZodRawIssue;

export interface InputRefusal {
  code: ErrorCode;
  message: string;
  /** The values a translation needs: always `field`, and the rule's limit or choices. */
  extra: Record<string, unknown>;
}

const CODE_OF_TEXT = new Map<string, ErrorCode>();

/**
 * A schema's own message that is a refusal of its own kind: `z.string().min(1, refusalText('USERNAME_INVALID', …))`.
 * The same text always names the same code.
 */
export function refusalText(code: ErrorCode, text: string): string {
  const known = CODE_OF_TEXT.get(text);
  if (known !== undefined && known !== code) throw new Error(`"${text}" is already the text of ${known}`);
  CODE_OF_TEXT.set(text, code);
  return text;
}

const fieldOf = (path: readonly PropertyKey[] | undefined) => (path && path.length > 0 ? path.map(String).join('.') : 'input');

/** Readable default messages naming the field; a schema's own message always wins over these. */
export function describeIssue(issue: RawIssue): string | undefined {
  const field = fieldOf(issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `${field} is required`;
      if (issue.expected === 'int') return `${field} must be an integer`;
      return `${field} must be ${/^[aeiou]/.test(String(issue.expected)) ? 'an' : 'a'} ${String(issue.expected)}`;
    case 'too_big':
      if (issue.origin === 'string') return `${field} is too long (at most ${String(issue.maximum)} characters)`;
      if (issue.origin === 'array') return `${field} has too many items (at most ${String(issue.maximum)})`;
      return `${field} must be at most ${String(issue.maximum)}`;
    case 'too_small':
      if (issue.origin === 'string') return `${field} is too short (at least ${String(issue.minimum)} characters)`;
      if (issue.origin === 'array') return `${field} needs at least ${String(issue.minimum)} items`;
      return `${field} must be at least ${String(issue.minimum)}`;
    case 'invalid_value':
      return `${field} must be one of: ${(issue.values as unknown[]).map(String).join(', ')}`;
    case 'invalid_format':
      return `${field} has an invalid format`;
    case 'unrecognized_keys':
      return `Unknown field: ${(issue.keys as string[]).join(', ')}`;
    default:
      return `${field} is invalid`;
  }
}

/** The code and values of the rule an issue broke. */
function ruleOf(issue: Issue): { code: ErrorCode; values: Record<string, unknown> } {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? { code: 'FIELD_REQUIRED', values: {} } : { code: 'FIELD_WRONG_TYPE', values: { expected: issue.expected } };
    case 'too_big': {
      const code = issue.origin === 'string' ? 'FIELD_TOO_LONG' : issue.origin === 'array' ? 'FIELD_TOO_MANY' : 'FIELD_TOO_BIG';
      return { code, values: { maximum: Number(issue.maximum) } };
    }
    case 'too_small': {
      const code = issue.origin === 'string' ? 'FIELD_TOO_SHORT' : issue.origin === 'array' ? 'FIELD_TOO_FEW' : 'FIELD_TOO_SMALL';
      return { code, values: { minimum: Number(issue.minimum) } };
    }
    case 'invalid_value':
      return { code: 'FIELD_NOT_ALLOWED', values: { values: issue.values.map(String) } };
    case 'unrecognized_keys':
      return { code: 'UNKNOWN_FIELD', values: { keys: issue.keys } };
    default:
      return { code: 'FIELD_INVALID', values: {} };
  }
}

/** The refusal for the first issue of a failed parse: its text as the schema gave it, its code and values. */
export function issueRefusal(issue: Issue | undefined): InputRefusal {
  if (!issue) return { code: 'INVALID_INPUT', message: 'Invalid input', extra: {} };
  const rule = ruleOf(issue);
  const own = CODE_OF_TEXT.get(issue.message);
  return { code: own ?? rule.code, message: issue.message, extra: { field: fieldOf(issue.path), ...(own ? {} : rule.values) } };
}
