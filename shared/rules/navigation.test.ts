import { describe, expect, it } from 'vitest';
import { checkRedirect, destinationAfterProfile, destinationAfterSignIn, homeOf } from './navigation';

const none = { isPresent: false, isLogedIn: false };
const signedOutExtension = { isPresent: true, isLogedIn: false };
const signedInExtension = { isPresent: true, isLogedIn: true };

describe('where people go after signing in', () => {
  it('sends a first login to the basic profile, whatever the role', () => {
    expect(destinationAfterSignIn({ role: 'USER', isFirstLogin: true }, signedOutExtension)).toBe(
      '/basic-profile',
    );
    expect(destinationAfterSignIn({ role: 'TENANT', isFirstLogin: true }, none)).toBe('/basic-profile');
  });
  it('sends a learner whose extension is present but signed out to /check', () => {
    expect(destinationAfterSignIn({ role: 'USER', isFirstLogin: false }, signedOutExtension)).toBe('/check');
  });
  it('sends other learners to /my-roadmaps and mentors to /portal/users', () => {
    expect(destinationAfterSignIn({ role: 'USER', isFirstLogin: false }, none)).toBe('/my-roadmaps');
    expect(destinationAfterSignIn({ role: 'USER', isFirstLogin: false }, signedInExtension)).toBe(
      '/my-roadmaps',
    );
    expect(destinationAfterSignIn({ role: 'TENANT', isFirstLogin: false }, signedOutExtension)).toBe(
      '/portal/users',
    );
  });
  it('applies the same rules after the basic profile', () => {
    expect(destinationAfterProfile({ role: 'USER' }, signedOutExtension)).toBe('/check');
    expect(destinationAfterProfile({ role: 'USER' }, none)).toBe('/my-roadmaps');
    expect(destinationAfterProfile({ role: 'TENANT' }, none)).toBe('/portal/users');
  });
});

describe('/check', () => {
  it('honours a same-site redirectTo and refuses other sites', () => {
    expect(checkRedirect('USER', '/my-roadmap/abc')).toBe('/my-roadmap/abc');
    expect(checkRedirect('USER', '//evil.example.com')).toBe('/my-roadmaps');
    expect(checkRedirect('USER', 'https://evil.example.com')).toBe('/my-roadmaps');
    expect(checkRedirect('TENANT', null)).toBe('/portal/users');
  });
});

describe('homeOf', () => {
  it("sends a learner to their roadmaps and every other role (the spec's 'other roles') to /portal/users", () => {
    expect(homeOf('USER')).toBe('/my-roadmaps');
    expect(homeOf('TENANT')).toBe('/portal/users');
    expect(homeOf('ADMIN')).toBe('/portal/users');
    expect(checkRedirect('ADMIN' as 'TENANT', null)).toBe('/portal/users');
  });
});
