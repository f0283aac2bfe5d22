/**
 * The landing page, also at /landing (mentor §1, §2.9): promo video, LOGIN and GET STARTED, the Select
 * Roadmap catalogue, what Waymark does for students and for companies, six steps to start, pricing,
 * and the footer.
 */
import '@widgets/catalogue/catalogue.css';
import '../../layout/public.css';
import type { MessageKey } from '@shared/i18n/keys';
import { LOCALE_NAMES } from '@shared/i18n/locales';
import { RoadmapCatalogue } from '@widgets/catalogue/RoadmapCatalogue';
import { Rich, useI18n } from '@widgets/core/i18n';
import { useId } from 'react';
import { Link } from 'react-router';
import { PortalWidgets } from '../../components/PortalWidgets';
import { PublicPage, useDocumentTitle } from '../../layout/PublicChrome';

/** The plans (prices in rupees; what they are called and hold are message keys). */
export const PLANS = [
  {
    id: 'freemium',
    name: 'plan.freemium',
    price: null,
    per: 'plan.individuals',
    features: ['plan.f.tenCourses', 'plan.f.plugin', 'plan.f.assessments'],
    to: '/learner',
  },
  {
    id: 'enterprise',
    name: 'plan.enterprise',
    price: 75,
    per: 'plan.perUser',
    features: ['plan.f.unlimited', 'plan.f.pluginAssessments', 'plan.f.manager', 'plan.f.reports'],
    to: '/tenant',
  },
  {
    id: 'advanced',
    name: 'plan.advanced',
    price: 125,
    per: 'plan.perUser',
    features: ['plan.f.everything', 'plan.f.liveMentor'],
    to: '/tenant',
  },
] as const satisfies readonly {
  id: string;
  name: MessageKey;
  price: number | null;
  per: MessageKey;
  features: readonly MessageKey[];
  to: string;
}[];

export const ONBOARDING_STEPS = [
  ['steps.account', 'steps.accountText'],
  ['steps.profile', 'steps.profileText'],
  ['steps.extension', 'steps.extensionText'],
  ['steps.roadmap', 'steps.roadmapText'],
  ['steps.learn', 'steps.learnText'],
  ['steps.awards', 'steps.awardsText'],
] as const satisfies readonly (readonly [MessageKey, MessageKey])[];

const STUDENT_BENEFITS = [
  'landing.student1',
  'landing.student2',
  'landing.student3',
  'landing.student4',
] as const satisfies readonly MessageKey[];
const COMPANY_BENEFITS = [
  'landing.company1',
  'landing.company2',
  'landing.company3',
  'landing.company4',
] as const satisfies readonly MessageKey[];

export default function LandingPage() {
  const { t } = useI18n();
  useDocumentTitle(t('landing.documentTitle'));
  return (
    <PublicPage
      variant="landing"
      links={
        <ul>
          <li>
            <a href="#roadmaps">{t('roadmaps.caption')}</a>
          </li>
          <li>
            <a href="#students">{t('landing.students')}</a>
          </li>
          <li>
            <a href="#companies">{t('landing.companies')}</a>
          </li>
          <li>
            <a href="#pricing">{t('landing.pricing')}</a>
          </li>
        </ul>
      }
    >
      <section className="hero-band" aria-labelledby="hero-title">
        <div className="hero-text">
          <h1 id="hero-title">{t('landing.heroTitle')}</h1>
          <p className="lead">{t('landing.heroLead')}</p>
          <div className="row">
            <Link className="btn btn-large" to="/who-i-am">
              {t('nav.getStarted')}
            </Link>
            <a className="btn btn-secondary btn-large" href="#roadmaps">
              {t('landing.browse')}
            </a>
          </div>
        </div>
        <PromoVideo />
      </section>

      <section id="roadmaps" className="band" tabIndex={-1}>
        <div className="band-inner">
          <PortalWidgets>
            <RoadmapCatalogue />
          </PortalWidgets>
        </div>
      </section>

      <section id="students" className="band band-soft" aria-labelledby="students-title" tabIndex={-1}>
        <div className="band-inner split">
          <div>
            <p className="eyebrow">{t('whoIAm.learnerTagline')}</p>
            <h2 id="students-title">{t('landing.forStudents')}</h2>
            <p className="lead">{t('landing.studentsLead')}</p>
            <Link className="btn" to="/learner">
              {t('landing.startFree')}
            </Link>
          </div>
          <ul className="benefits">
            {STUDENT_BENEFITS.map((k) => (
              <li key={k}>
                <Rich k={k} components={{ 0: <strong /> }} />
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section id="companies" className="band" aria-labelledby="companies-title" tabIndex={-1}>
        <div className="band-inner split">
          <div>
            <p className="eyebrow">{t('whoIAm.mentorTagline')}</p>
            <h2 id="companies-title">{t('whoIAm.mentorTagline')}</h2>
            <p className="lead">{t('landing.companiesLead')}</p>
            <Link className="btn" to="/tenant">
              {t('landing.signUpMentor')}
            </Link>
          </div>
          <ul className="benefits">
            {COMPANY_BENEFITS.map((k) => (
              <li key={k}>
                <Rich k={k} components={{ 0: <strong /> }} />
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="band band-soft" aria-labelledby="steps-title">
        <div className="band-inner">
          <h2 id="steps-title">{t('landing.steps')}</h2>
          <ol className="steps">
            {ONBOARDING_STEPS.map(([title, text]) => (
              <li key={title}>
                <h3>{t(title)}</h3>
                <p>{t(text)}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section id="pricing" className="band" aria-labelledby="pricing-title" tabIndex={-1}>
        <div className="band-inner">
          <h2 id="pricing-title">{t('landing.pricing')}</h2>
          <p className="lead">{t('landing.pricingLead')}</p>
          <ul className="plans">
            {PLANS.map((plan) => (
              <Plan key={plan.id} plan={plan} />
            ))}
          </ul>
        </div>
      </section>
    </PublicPage>
  );
}

function Plan({ plan }: { plan: (typeof PLANS)[number] }) {
  const id = useId();
  const { t, number } = useI18n();
  return (
    <li className={`plan${plan.id === 'enterprise' ? ' plan-featured' : ''}`}>
      <h3 id={id}>{t(plan.name)}</h3>
      <p className="plan-price">
        <strong>
          {plan.price === null
            ? t('course.free')
            : number(plan.price, { style: 'currency', currency: 'INR', maximumFractionDigits: 0 })}
        </strong>
        <span className="plan-per">{t(plan.per)}</span>
      </p>
      <ul className="plan-features">
        {plan.features.map((f) => (
          <li key={f}>{t(f)}</li>
        ))}
      </ul>
      <Link className="btn btn-block" to={plan.to} aria-describedby={id}>
        {t('catalogue.select')}
      </Link>
    </li>
  );
}

/** The promo video: local, captioned (in English), never autoplaying. */
function PromoVideo() {
  const { t } = useI18n();
  return (
    <figure className="promo">
      <video
        controls
        preload="metadata"
        poster="/media/waymark-intro-poster.svg"
        width="960"
        height="540"
        aria-describedby="promo-caption"
      >
        <source src="/media/waymark-intro.webm" type="video/webm" />
        <track
          kind="captions"
          src="/media/waymark-intro.en.vtt"
          srcLang="en"
          label={LOCALE_NAMES.en}
          default
        />
        {t('landing.noVideo')} <a href="/media/waymark-intro.webm">{t('landing.downloadVideo')}</a>
      </video>
      <figcaption id="promo-caption">{t('landing.videoCaption')}</figcaption>
    </figure>
  );
}
