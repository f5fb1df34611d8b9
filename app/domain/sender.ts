/** Who a reminder is from, as people see it: the organization's name, else the user's name, else their address. */
export function senderDisplayName(user: { fullName: string; email: string }, org?: { name: string } | null): string {
  return org?.name ?? (user.fullName || user.email);
}
