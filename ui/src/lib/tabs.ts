// Keyboard moves in a row of tabs (WAI-ARIA tabs pattern), for the studio's tabs and the Design
// tab's side panels alike.

/** The tab `key` moves to from tab `index` of `count`: arrows wrap around, Home and End go to the ends; null for any other key. */
export function tabKeyTarget(key: string, index: number, count: number): number | null {
  switch (key) {
    case 'ArrowRight':
      return (index + 1) % count;
    case 'ArrowLeft':
      return (index + count - 1) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
