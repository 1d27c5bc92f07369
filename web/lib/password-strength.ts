// docs/product.md §5 "Strength score" and §4 "Password strength": a live score from 0 to 100 with the labels
// Weak (below 50), Moderate (50 to 79) and Strong (80 and above). A hint for the user, not a rule:
// the server only enforces password_min_length.

export type StrengthLabel = "Weak" | "Moderate" | "Strong";

const POINTS_PER_CHARACTER = 2;
const LENGTH_POINTS_CAP = 40;
const CLASS_POINTS = 10;
const PENALTY = 10;
const BONUS = 10;

const CHARACTER_CLASSES: readonly RegExp[] = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/];
const COMMON_SEQUENCES: readonly string[] = ["abc", "123", "qwe", "asd", "password"];

export function scorePassword(password: string): number {
  // Characters, not UTF-16 units: an emoji counts once.
  const length = Array.from(password).length;
  const classes = CHARACTER_CLASSES.filter((characterClass) => characterClass.test(password)).length;
  const hasRepeatedRun = /(.)\1\1/su.test(password);
  const lower = password.toLowerCase();
  const hasCommonSequence = COMMON_SEQUENCES.some((sequence) => lower.includes(sequence));

  let score = Math.min(length * POINTS_PER_CHARACTER, LENGTH_POINTS_CAP);
  score += classes * CLASS_POINTS;
  if (hasRepeatedRun) score -= PENALTY;
  if (hasCommonSequence) score -= PENALTY;
  const allClasses = classes === CHARACTER_CLASSES.length;
  if (length >= 16 && allClasses) score += BONUS;
  if (length >= 20 && allClasses && !hasRepeatedRun && !hasCommonSequence) score += BONUS;
  return Math.max(0, Math.min(100, score));
}

export function strengthLabel(score: number): StrengthLabel {
  if (score >= 80) return "Strong";
  if (score >= 50) return "Moderate";
  return "Weak";
}
