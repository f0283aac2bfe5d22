import { profileMessages } from '@shared/schemas/user';
import { describe, expect, it } from 'vitest';
import { english } from '../lib/i18n';
import { setupServer, uniquePhone } from '../test/helper';

const server = setupServer();

const basic = (body: object, token: string) => server.put('/api/login/basic-profile', body, { token });
const full = (body: object, token: string) =>
  server.put('/api/login/basic-profile', body, { token, query: { page: 'profile_page' } });
const me = async (token: string) => (await server.get('/api/user/me', { token })).body.data;

const fullProfile = () => ({
  name: 'Meera Nair',
  phoneNumber: uniquePhone(),
  phoneCountry: 'IN',
  linkedIn: 'https://www.linkedin.com/in/meera-nair',
  tShirtSize: 'M',
  addressLine1: '4 Residency Road',
  addressLine2: '',
  country: 'IN',
  state: 'Karnataka',
  city: 'Bengaluru',
  pincode: '560025',
});

describe('the basic profile (after the first sign-in)', () => {
  it('saves the name and the phone number, India by default, and ends the first login', async () => {
    const learner = await server.signedIn('USER');
    const phone = uniquePhone();
    const res = await basic({ name: '  Kiran Rao ', phoneNumber: phone }, learner.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Kiran Rao',
      phoneNumber: phone,
      countrycode: '+91',
      phoneCountry: 'IN',
      isFirstLogin: false,
      isProfileCompleted: false,
      iam: null,
    });
    expect(await me(learner.token)).toMatchObject({ name: 'Kiran Rao', phoneNumber: phone });
  });

  it('accepts a number of another country with its country', async () => {
    const learner = await server.signedIn('USER');
    const res = await basic({ name: 'Sam', phoneNumber: '202 555 0175', phoneCountry: 'US' }, learner.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ countrycode: '+1', phoneCountry: 'US', phoneNumber: '2025550175' });
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const learner = await server.signedIn('USER');
    const noName = await basic({ name: '   ', phoneNumber: uniquePhone() }, learner.token);
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({
      field: 'name',
      fields: { name: english().t(profileMessages.nameRequired) },
    });

    const badPhone = await basic({ name: 'Kiran', phoneNumber: '12345' }, learner.token);
    expect(badPhone.status).toBe(400);
    expect(badPhone.body).toMatchObject({ field: 'phoneNumber' });
    expect(badPhone.body.fields.phoneNumber).toBe(english().t(profileMessages.phoneInvalid));

    const badLinkedIn = await basic(
      { name: 'Kiran', phoneNumber: uniquePhone(), linkedIn: 'https://example.com/me' },
      learner.token,
    );
    expect(badLinkedIn.status).toBe(400);
    expect(badLinkedIn.body.fields.linkedIn).toBe(english().t(profileMessages.linkedInInvalid));

    expect(await me(learner.token)).toMatchObject({ name: null, phoneNumber: null, isFirstLogin: true });
  });

  it("needs a mentor's 'I am'", async () => {
    const mentor = await server.signedIn('TENANT');
    const without = await basic({ name: 'Ravi', phoneNumber: uniquePhone() }, mentor.token);
    expect(without.status).toBe(400);
    expect(without.body).toMatchObject({ field: 'iam', message: 'Required*' });
    expect(await me(mentor.token)).toMatchObject({ name: null, isFirstLogin: true });

    const withIam = await basic({ name: 'Ravi', phoneNumber: uniquePhone(), iam: 'PARENT' }, mentor.token);
    expect(withIam.status).toBe(200);
    expect(withIam.body.data.iam).toBe('PARENT');
  });

  it('refuses a phone number someone else uses with code 11000 on phoneNumber', async () => {
    const first = await server.signedIn('USER');
    const second = await server.signedIn('USER');
    const phone = uniquePhone();
    expect((await basic({ name: 'First', phoneNumber: phone }, first.token)).status).toBe(200);
    const res = await basic({ name: 'Second', phoneNumber: phone }, second.token);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      statusCode: 409,
      code: 11000,
      field: 'phoneNumber',
      keyPattern: { phoneNumber: 1 },
    });
    // no SQL, parameters or constraint names leak
    expect(res.text).not.toMatch(/insert|update|users_phone|constraint|\$1/i);
    expect(await me(second.token)).toMatchObject({ name: null, phoneNumber: null });
  });

  it('lets the name change once after it was first given, then refuses with ERR001 on the name', async () => {
    const learner = await server.signedIn('USER');
    const phoneNumber = uniquePhone();
    expect((await basic({ name: 'Anu', phoneNumber }, learner.token)).status).toBe(200);
    expect((await me(learner.token)).canChangeName).toBe(true);

    const changed = await basic({ name: 'Anusha', phoneNumber }, learner.token);
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ name: 'Anusha', canChangeName: false });

    // saving again with the same name is fine
    expect((await basic({ name: 'Anusha', phoneNumber }, learner.token)).status).toBe(200);

    const refused = await basic({ name: 'Anusha K', phoneNumber }, learner.token);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'ERR001',
      field: 'name',
      message: english().t(profileMessages.nameChangedOnce),
    });
    expect((await me(learner.token)).name).toBe('Anusha');
  });

  it('refuses an unknown page', async () => {
    const learner = await server.signedIn('USER');
    const res = await server.put(
      '/api/login/basic-profile',
      { name: 'A', phoneNumber: uniquePhone() },
      { ...learner.auth, query: { page: 'other_page' } },
    );
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('page');
  });

  it('is for signed-in people only', async () => {
    const res = await server.put('/api/login/basic-profile', { name: 'A', phoneNumber: uniquePhone() });
    expect(res.status).toBe(401);
  });
});

describe('the full profile (page=profile_page)', () => {
  it('saves every field and marks the profile completed', async () => {
    const learner = await server.signedIn('USER', { profile: true, name: 'Meera Nair' });
    const body = fullProfile();
    const res = await full(body, learner.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Meera Nair',
      phoneNumber: body.phoneNumber,
      linkedIn: body.linkedIn,
      tShirtSize: 'M',
      addressLine1: '4 Residency Road',
      addressLine2: null,
      country: 'IN',
      state: 'Karnataka',
      city: 'Bengaluru',
      pincode: '560025',
      isProfileCompleted: true,
    });
    expect((await me(learner.token)).isProfileCompleted).toBe(true);
  });

  it('needs every required field, naming the first missing one, and writes nothing', async () => {
    const learner = await server.signedIn('USER', { profile: true, name: 'Meera Nair' });
    const { linkedIn: _linkedIn, city: _city, ...partial } = fullProfile();
    const res = await full(partial, learner.token);
    expect(res.status).toBe(400);
    expect(res.body.fields).toMatchObject({
      linkedIn: english().t(profileMessages.linkedInRequired),
      city: english().t(profileMessages.cityRequired),
    });
    expect(res.body.field).toEqual(expect.any(String));
    expect(await me(learner.token)).toMatchObject({ isProfileCompleted: false, city: null });
  });

  it('refuses a T-shirt size it does not offer', async () => {
    const learner = await server.signedIn('USER', { profile: true, name: 'Meera Nair' });
    const res = await full({ ...fullProfile(), tShirtSize: 'XXXL' }, learner.token);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'tShirtSize', message: expect.stringContaining('T-shirt') });
  });
});
