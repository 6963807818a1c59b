/** Line icons of the App Store cards (24 x 24, stroke drawn), by the icon name a plugin carries. */
const PATHS: Record<string, string[]> = {
  mail: ['M3 6h18v12H3z', 'M3 7l9 6 9-6'],
  'hard-drive': ['M3 14h18v5H3z', 'M5 14l3-8h8l3 8', 'M7 16.5h.01', 'M10.5 16.5h.01'],
  cloud: ['M7 18h10a4 4 0 0 0 .5-7.97A6 6 0 0 0 6.1 9.5 4.25 4.25 0 0 0 7 18z'],
  slack: ['M9 4v16', 'M15 4v16', 'M4 9h16', 'M4 15h16'],
  'message-circle': ['M4 12a8 8 0 1 1 3.5 6.6L4 20l1.2-3.7A8 8 0 0 1 4 12z'],
  users: ['M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7z', 'M2.5 20a6.5 6.5 0 0 1 13 0', 'M16 4.3a3.5 3.5 0 0 1 0 6.4', 'M18 14a6.5 6.5 0 0 1 3.5 6'],
  'message-square': ['M4 4h16v12H8l-4 4z'],
  palette: ['M12 3a9 9 0 1 0 0 18c1.2 0 1.8-.8 1.8-1.7 0-1.2-1-1.6-1-2.6 0-1 .8-1.7 1.8-1.7H17a4 4 0 0 0 4-4C21 6.6 17 3 12 3z', 'M7.5 11h.01', 'M10 7.5h.01', 'M14.5 7.5h.01'],
};

export function PluginIcon(props: { name: string }) {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      {(PATHS[props.name] ?? ['M12 3l9 9-9 9-9-9z']).map((d) => <path key={d} d={d} />)}
    </svg>
  );
}
