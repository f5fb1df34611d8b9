/** The signed-in user as the header shows them (root loader), and their round picture or initials. */
export interface HeaderUser {
  fullName: string;
  email: string;
  imageUrl: string | null;
}

function initials(name: string) {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return (parts[0]?.[0] ?? "?").toUpperCase() + (parts[1]?.[0] ?? "").toUpperCase();
}

export function Avatar({ user, className = "h-9 w-9" }: { user: HeaderUser; className?: string }) {
  return user.imageUrl ? (
    <img src={user.imageUrl} alt="" className={`${className} rounded-full object-cover`} />
  ) : (
    // Decorative (aria-hidden): the button it sits in is named "Open account menu", and initials
    // read aloud ("U") would not match that name.
    <span
      aria-hidden
      className={`${className} inline-flex items-center justify-center rounded-full bg-primary text-sm font-bold text-primary-foreground`}
    >
      {initials(user.fullName || user.email)}
    </span>
  );
}
