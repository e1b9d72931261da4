/** `?requireSignup=true`: the visitor was sent here to create an account (spec section 2). */
export function wantsSignUp(search: string): boolean {
  return new URLSearchParams(search).get('requireSignup') === 'true';
}

/** `?email=`: an address to fill in for the visitor (spec section 2). */
export function emailFromAddress(search: string): string {
  return new URLSearchParams(search).get('email')?.trim() ?? '';
}
