import { http } from '../http/client';
import type { CreateUserRequestJson, CreateUserResponseJson } from './types';

/** POST internal/users: creates the account and returns a custom sign-in token. */
export function createUser(body: CreateUserRequestJson): Promise<CreateUserResponseJson> {
  return http.post<CreateUserResponseJson>('internal/users', body);
}

/** The body the web sign-up sends (spec section 3, internal user creation). */
export function webSignUpBody(email: string, password: string): CreateUserRequestJson {
  return {
    email,
    password,
    suppressWelcomeEmail: true,
    name: email.split('@')[0],
    metricsSignUpSource: 'web',
  };
}
