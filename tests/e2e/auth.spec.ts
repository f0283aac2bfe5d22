import type { Page } from '@playwright/test';
import { basicProfile } from '../../shared/contract/profile';
import { newAccount, PASSWORD, uniquePhone } from '../support/accounts';
import { type Emulator, uniqueEmail } from '../support/emulator';
import { expect, expectAccessible, login, signUpLearner, test } from '../support/fixtures';

/** A mobile number as a person types it ('98765 01234'); a new one each time, so a retried test finds it free. */
const typedPhone = (digits = uniquePhone()) => `${digits.slice(0, 5)} ${digits.slice(5)}`;

/** Signs a new learner up through the portal and completes the basic profile: /my-roadmaps. */
async function registerLearner(page: Page, emulator: Emulator, email: string, name: string) {
  await page.goto('/learner');
  await signUpLearner(page, emulator, { email, password: PASSWORD, name });
  await expect(page).toHaveURL(/\/my-roadmaps$/);
}

test.describe('sign-up, verification and the basic profile', () => {
  test('a learner signs up, verifies the e-mail, completes the basic profile and lands on /my-roadmaps', async ({
    page,
  }) => {
    const email = uniqueEmail('learner');
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'GET STARTED' }).first()).toBeVisible();
    await expectAccessible(page, 'landing');
    await page.getByRole('link', { name: 'GET STARTED' }).first().click();
    await expect(page).toHaveURL(/\/who-i-am$/);
    await expect(
      page.getByRole('heading', { name: 'How are you planning to use the product?' }),
    ).toBeVisible();
    await expectAccessible(page, 'role chooser');
    await page.getByRole('radio', { name: /Learner/ }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/learner$/);
    await expect(page.getByRole('heading', { name: 'Sign up as Learner' })).toBeVisible();

    // the rules of the password and the confirmation, shown once a field is touched
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('other');
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByText('*Password must be 8 characters long.')).toBeVisible();
    await expect(page.getByText('Password does not match')).toBeVisible();
    await expectAccessible(page, 'sign-up with errors');

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByText(/Thank you for signing up with our platform/)).toBeVisible();
    await expectAccessible(page, 'sign-up notice');

    await page.getByRole('link', { name: 'Go to Login' }).click();
    await expect(page).toHaveURL(/\/login$/);

    // the verification e-mail, as a person on the local product finds it: in the mailbox, link and all
    await page.goto('/mailbox');
    const mail = page.getByRole('article').filter({ hasText: email });
    await expect(mail).toContainText('Verify your e-mail address');
    await expectAccessible(page, 'mailbox');
    await mail.getByRole('link', { name: 'Open the link' }).click();
    await expect(page).toHaveURL(/\/login\?verified=1$/);
    await expect(page.getByRole('status')).toHaveText('Your e-mail address is verified. Login to continue.');
    await expectAccessible(page, 'login after verification');
    await login(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/basic-profile$/);
    await expect(page.getByRole('heading', { name: 'Tell us about yourself' })).toBeVisible();
    await expectAccessible(page, 'basic profile');

    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('Name Required')).toBeVisible();
    await page.getByLabel('Name').fill('Meera Learner');
    await page.getByRole('textbox', { name: 'Mobile number' }).fill(typedPhone());
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/my-roadmaps$/);
    await expect(page.getByRole('heading', { name: 'My Roadmaps' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Meera Learner' })).toBeVisible();
    await expect(page.getByText('Complete your Profile')).toBeVisible();
    await expectAccessible(page, 'my roadmaps');

    // the sign-up e-mail is now taken
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/learner');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).focus();
    await expect(page.getByText('Email already exists')).toBeVisible();
  });

  test('a mentor signs up and lands on /portal/users after choosing "I am"', async ({ page, emulator }) => {
    const email = uniqueEmail('mentor');
    await page.goto('/tenant');
    await expect(page.getByRole('heading', { name: 'Sign up as Mentor' })).toBeVisible();
    await expectAccessible(page, 'mentor sign-up');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByText(/Thank you for signing up/)).toBeVisible();
    await emulator.verifyEmail(email);
    await login(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/basic-profile$/);
    await page.getByLabel('Name').fill('Kiran Mentor');
    await page.getByRole('textbox', { name: 'Mobile number' }).fill(typedPhone());
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('Required*')).toBeVisible();
    await page.getByLabel('I am').selectOption('MENTOR');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/portal\/users$/);
    await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
    await expect(page.getByText('No data found')).toBeVisible();
    await expectAccessible(page, 'tenant users');
  });
});

test.describe('signing in', () => {
  test('an unverified e-mail gets the Attention dialog; Resend it confirms and closes after 4 s', async ({
    page,
    emulator,
  }) => {
    const email = uniqueEmail('unverified');
    await emulator.createAccount(email, PASSWORD);
    await login(page, email, PASSWORD);
    const dialog = page.getByRole('alertdialog', { name: 'Attention!' });
    await expect(dialog).toBeVisible();
    await expectAccessible(page, 'attention dialog');
    await dialog.getByRole('button', { name: 'Resend it' }).click();
    await expect(page.getByText(/We have resent the verification link/)).toBeVisible();
    await expect(dialog).toBeHidden({ timeout: 6000 });
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a person who never registered is told so and sent to the role chooser', async ({
    page,
    emulator,
  }) => {
    const email = uniqueEmail('stranger');
    await emulator.createAccount(email, PASSWORD, { verified: true });
    await login(page, email, PASSWORD);
    await expect(
      page.getByText('Failed: You are not Existing User, Please login after registration'),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/who-i-am$/);
  });

  test('the login page checks the e-mail on blur and enforces the password rules', async ({ page }) => {
    await page.goto('/login');
    await expectAccessible(page, 'login');
    await page.getByLabel('Email').fill('nobody-here@example.com');
    await page.getByLabel('Password', { exact: true }).focus();
    await expect(page.getByText('Email does not exist')).toBeVisible();
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('alllowercase1!');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await expect(page.getByText('Must contain one capital letter')).toBeVisible();
  });

  test('an access token expiring mid-session is refreshed without the person noticing', async ({ page }) => {
    const learner = await newAccount({ prefix: 'refresh', name: 'Rhea Refresh' });
    // the full profile too, so that saving it again asks for nothing
    await learner.api.call(basicProfile, {
      query: { page: 'profile_page' },
      body: {
        name: learner.name,
        phoneNumber: learner.phone,
        phoneCountry: 'IN',
        linkedIn: 'https://www.linkedin.com/in/rhea-refresh',
        tShirtSize: 'M',
        addressLine1: '12 MG Road',
        country: 'IN',
        state: 'Karnataka',
        city: 'Bengaluru',
        pincode: '560001',
      },
    });
    await login(page, learner.email, learner.password);
    await expect(page).toHaveURL(/\/my-roadmaps$/);
    const refreshes: number[] = [];
    page.on('response', (res) => {
      if (res.url().endsWith('/api/login/refresh')) refreshes.push(res.status());
    });
    // the e2e server issues 6-second access tokens
    await page.waitForTimeout(7000);
    await page.getByRole('link', { name: 'Rhea Refresh' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Your profile is saved.')).toBeVisible();
    expect(refreshes).toContain(200);
    await expect(page).toHaveURL(/\/profile$/);
  });

  test('a learner opening /portal/users sees Not permitted; signed-out visitors go to /', async ({
    page,
  }) => {
    const learner = await newAccount({ prefix: 'not-permitted' });
    await page.goto('/portal/users');
    await expect(page).toHaveURL(/\/$/);
    await login(page, learner.email, learner.password);
    await expect(page).toHaveURL(/\/my-roadmaps$/);
    await page.goto('/portal/users');
    await expect(page.getByRole('heading', { name: 'Not permitted' })).toBeVisible();
    await expectAccessible(page, 'not permitted');
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe('profile and account deletion', () => {
  test('a learner saves the full profile with its rules', async ({ page, emulator }) => {
    const other = await newAccount({ prefix: 'phone-owner' });
    const email = uniqueEmail('profile');
    await registerLearner(page, emulator, email, 'Full Profile');
    await page.getByRole('link', { name: 'Full Profile' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Please enter linkedin profile url')).toBeVisible();
    await expect(page.getByText('Please choose a T-shirt size')).toBeVisible();
    await page.getByLabel('LinkedIn profile').fill('not a profile');
    await page.getByLabel('T-shirt size').selectOption('L');
    await page.getByLabel('Address line 1').fill('4 Residency Road');
    await page.getByLabel('State').fill('Karnataka');
    await page.getByLabel('City').fill('Bengaluru');
    await page.getByLabel('Pincode').fill('560025');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Please enter valid linkedin url')).toBeVisible();
    await page.getByLabel('LinkedIn profile').fill('https://www.linkedin.com/in/full-profile');
    // another learner already uses this number
    await page.getByRole('textbox', { name: 'Mobile number' }).fill(typedPhone(other.phone));
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Mobile Number Already Used')).toBeVisible();
    await page.getByRole('textbox', { name: 'Mobile number' }).fill(typedPhone());
    await page.getByLabel('Name').fill('Full Profile Renamed');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Your profile is saved.')).toBeVisible();
    await expect(page.getByText('Complete your Profile')).toBeHidden();
    // the one name change is used: the field is locked and says how to change it
    await expect(page.getByRole('textbox', { name: /^Name/ })).toHaveJSProperty('readOnly', true);
    await expect(page.getByText(/Your name has already been changed once/)).toBeVisible();
    await expectAccessible(page, 'full profile');
  });

  test('a deleted account is restored when its owner signs in again within 90 days', async ({
    page,
    emulator,
  }) => {
    const email = uniqueEmail('leaver');
    await registerLearner(page, emulator, email, 'Leaving Learner');

    await page.getByRole('link', { name: 'Leaving Learner' }).click();
    await expectAccessible(page, 'profile');
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await expect(
      page.getByText('Please tick the box to confirm you want to delete your account.'),
    ).toBeVisible();
    await page.getByLabel('I understand that my account and my data will be deleted.').check();
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await page
      .getByRole('alertdialog', { name: 'Are you sure?' })
      .getByRole('button', { name: 'Yes, continue' })
      .click();
    await expect(page).toHaveURL(/\/delete$/);
    await expectAccessible(page, 'delete');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page.getByText('Please select a reason for deleting your account.')).toBeVisible();
    await page.getByRole('radio', { name: 'Other' }).check();
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page.getByText('Please provide a reason for deleting your account.')).toBeVisible();
    await page.getByLabel('Tell us more').fill('Trying the product out');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    // cancelling keeps the account
    await page
      .getByRole('alertdialog', { name: 'Delete your account?' })
      .getByRole('button', { name: 'Cancel' })
      .click();
    const canceled = page.getByRole('status').filter({ hasText: 'Account Deletion Canceled' });
    await expect(canceled).toBeVisible();
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete your account?' })
      .getByRole('button', { name: 'Yes, delete' })
      .click();
    await expect(page.getByRole('dialog', { name: 'Scheduled for deletion' })).toBeVisible();
    // asked for again, the deletion is no longer canceled: the message goes at once, not when its timer
    // runs out, and never stands beside 'Scheduled for deletion'
    await expect(canceled).toHaveCount(0, { timeout: 1000 });
    await page.getByRole('button', { name: 'OK' }).click();
    await expect(page).toHaveURL(/\/$/);

    await login(page, email, PASSWORD);
    await expect(page.getByText('Account Deletion Canceled')).toBeVisible();
    await expect(page).toHaveURL(/\/my-roadmaps$/);
  });
});

test.describe('Google-style and Microsoft-style sign-in on the emulator', () => {
  test('signing up with Google lands on the basic profile with the provider name filled in', async ({
    page,
  }) => {
    await page.goto('/learner');
    await page.getByRole('button', { name: 'Sign up with Google' }).click();
    const chooser = page.getByRole('dialog', { name: 'Sign in with Google' });
    await expect(chooser).toBeVisible();
    await expectAccessible(page, 'provider chooser');
    await chooser.getByLabel('Google e-mail').fill(uniqueEmail('google'));
    await chooser.getByLabel('Display name').fill('Gita Google');
    await chooser.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page).toHaveURL(/\/basic-profile$/);
    await expect(page.getByRole('textbox', { name: /^Name/ })).toHaveValue('Gita Google');
  });

  test('a Microsoft account counts as verified; without registering it is sent to the role chooser', async ({
    page,
  }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with Microsoft' }).click();
    await page.getByLabel('Microsoft e-mail').fill(uniqueEmail('ms-stranger'));
    await page.getByRole('button', { name: 'Continue with Microsoft' }).click();
    await expect(
      page.getByText('Failed: You are not Existing User, Please login after registration'),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/who-i-am$/);

    await page.goto('/tenant');
    await page.getByRole('button', { name: 'Sign up with Microsoft' }).click();
    await page.getByLabel('Microsoft e-mail').fill(uniqueEmail('ms-mentor'));
    await page.getByRole('button', { name: 'Continue with Microsoft' }).click();
    await expect(page).toHaveURL(/\/basic-profile$/);
    await expect(page.getByLabel('I am')).toBeVisible();
  });
});
