/** A wait in seconds as its largest whole unit: 45 s, 12 min, 3 h, 2 d; "-" for none. */
export function ageText(seconds: number | null): string {
  if (seconds === null) return "-";
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}
