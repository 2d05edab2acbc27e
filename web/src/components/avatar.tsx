/** The first letter of a name (a username's `@` skipped), or `#` when there is none. */
export function Avatar({ name }: { name: string }) {
  return (
    <span className="avatar" aria-hidden="true">
      {name.replace(/^[\s@]+/, '').charAt(0).toUpperCase() || '#'}
    </span>
  );
}
