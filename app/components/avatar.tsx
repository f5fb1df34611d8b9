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
    // Decorative: the initials are drawn by CSS from data-initials (app.css), not text, so the
    // button they sit in has no visible text other than its name ("Open account menu").
    <span
      aria-hidden
      data-initials={initials(user.fullName || user.email)}
      className={`${className} avatar-initials inline-flex items-center justify-center rounded-full bg-primary text-sm font-bold text-primary-foreground`}
    />
  );
}
