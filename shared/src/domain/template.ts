/**
 * Mustache-style variables in greetings and bot messages: {{name}}, {{firstName}}, {{protocol}},
 * {{ms}} (time-of-day greeting), {{hour}} and {{date}}. Unknown variables are left as written.
 */
export interface TemplateValues {
  /** The contact's name. */
  name: string;
  /** The ticket's protocol (its id, or a protocol number when one exists). */
  protocol: string | number;
  /** The moment the message is written (local time of the server). */
  now: Date;
}

/** 'Bom dia' from 05:00, 'Boa tarde' from 12:00, 'Boa noite' from 18:00 until 04:59. */
export function timeOfDayGreeting(now: Date): string {
  const hour = now.getHours();
  if (hour >= 5 && hour < 12) return 'Bom dia';
  if (hour >= 12 && hour < 18) return 'Boa tarde';
  return 'Boa noite';
}

const two = (n: number) => String(n).padStart(2, '0');

export function renderTemplate(text: string, values: TemplateValues): string {
  const vars: Record<string, string> = {
    name: values.name,
    firstName: values.name.trim().split(/\s+/)[0] ?? '',
    protocol: String(values.protocol),
    ms: timeOfDayGreeting(values.now),
    hour: `${two(values.now.getHours())}:${two(values.now.getMinutes())}`,
    date: `${two(values.now.getDate())}/${two(values.now.getMonth() + 1)}/${values.now.getFullYear()}`,
  };
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) =>
    Object.hasOwn(vars, key) ? vars[key]! : whole,
  );
}
