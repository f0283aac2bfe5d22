/**
 * The landing page, also at /landing (mentor §1, §2.9): promo video, LOGIN and GET STARTED, the Select
 * Roadmap catalogue, what Waymark does for students and for companies, six steps to start, pricing,
 * and the footer.
 */
import '@widgets/catalogue/catalogue.css';
import '../../layout/public.css';
import { RoadmapCatalogue } from '@widgets/catalogue/RoadmapCatalogue';
import { useId } from 'react';
import { Link } from 'react-router';
import { PortalWidgets } from '../../components/PortalWidgets';
import { PublicPage, useDocumentTitle } from '../../layout/PublicChrome';

export const PLANS = [
  {
    name: 'Freemium',
    price: 'Free',
    per: 'For individuals',
    features: ['Up to 10 free courses', 'Plugin access', 'Assessment access'],
    to: '/learner',
  },
  {
    name: 'Enterprise',
    price: '₹75',
    per: 'per user per month, billed annually',
    features: [
      'Unlimited courses',
      'Plugin and assessments',
      'A manager / admin account',
      'Report and analytics',
    ],
    to: '/tenant',
  },
  {
    name: 'Advanced',
    price: '₹125',
    per: 'per user per month, billed annually',
    features: ['Everything in Enterprise', 'Live mentor sessions on selected topics'],
    to: '/tenant',
  },
] as const;

export const ONBOARDING_STEPS = [
  ['Create your account', 'Sign up as a learner with Google, Microsoft or your e-mail address.'],
  [
    'Complete your profile',
    'Tell us your name and mobile number so mentors and certificates get them right.',
  ],
  [
    'Install the Waymark extension',
    'Add it to Chrome or Firefox and sign in to it: it measures the time you spend on your resources.',
  ],
  [
    'Select a roadmap',
    'Pick one from the catalogue. If it has prerequisites, a short assessment tailors the roadmap to you.',
  ],
  [
    'Learn at your pace',
    'Open the videos and articles of your roadmap; your dashboard shows your daily progress.',
  ],
  [
    'Take assessments and earn awards',
    'Feathers for resources, badges for sections and a certificate for the roadmap, ready to share on LinkedIn.',
  ],
] as const;

export default function LandingPage() {
  useDocumentTitle('Learn with a map');
  return (
    <PublicPage
      variant="landing"
      links={
        <ul>
          <li>
            <a href="#roadmaps">Roadmaps</a>
          </li>
          <li>
            <a href="#students">Students</a>
          </li>
          <li>
            <a href="#companies">Companies</a>
          </li>
          <li>
            <a href="#pricing">Pricing</a>
          </li>
        </ul>
      }
    >
      <section className="hero-band" aria-labelledby="hero-title">
        <div className="hero-text">
          <h1 id="hero-title">Learn with a map. Prove it with awards.</h1>
          <p className="lead">
            Waymark turns the best videos and articles on the web into curated roadmaps. Our browser extension
            measures the time you really spend learning, assessments at every step check what you know, and
            feathers, badges and certificates show it to the world.
          </p>
          <div className="row">
            <Link className="btn btn-large" to="/who-i-am">
              GET STARTED
            </Link>
            <a className="btn btn-secondary btn-large" href="#roadmaps">
              Browse roadmaps
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
            <p className="eyebrow">For Individuals</p>
            <h2 id="students-title">For Students</h2>
            <p className="lead">
              Stop wondering what to learn next. Follow a roadmap a mentor has already tested, and let Waymark
              keep the score.
            </p>
            <Link className="btn" to="/learner">
              Start learning for free
            </Link>
          </div>
          <ul className="benefits">
            <li>
              <strong>Curated roadmaps.</strong> Sections of hand-picked videos and articles, in the order
              that makes sense, plus practical tasks.
            </li>
            <li>
              <strong>Real learning time.</strong> The extension counts the minutes you spend on your assigned
              resources — nothing else.
            </li>
            <li>
              <strong>Assessments at every level.</strong> Check yourself after a resource, a section or the
              whole roadmap.
            </li>
            <li>
              <strong>Awards worth sharing.</strong> Feathers, badges and certificates you can add to your
              LinkedIn profile.
            </li>
          </ul>
        </div>
      </section>

      <section id="companies" className="band" aria-labelledby="companies-title" tabIndex={-1}>
        <div className="band-inner split">
          <div>
            <p className="eyebrow">For Companies</p>
            <h2 id="companies-title">For Companies</h2>
            <p className="lead">
              Mentors, managers, parents and organisations see how their learners progress — and where they
              need help.
            </p>
            <Link className="btn" to="/tenant">
              Sign up as a mentor
            </Link>
          </div>
          <ul className="benefits">
            <li>
              <strong>Your learners in one place.</strong> Add or invite learners, assign roadmaps and follow
              their status.
            </li>
            <li>
              <strong>Analytics per learner.</strong> Daily learning time, a resource-wise report and every
              award earned.
            </li>
            <li>
              <strong>Your own assessments.</strong> Build tests from the question bank, schedule them and
              read every answer.
            </li>
            <li>
              <strong>Pay per seat.</strong> The first learners are free; add seats as your team grows.
            </li>
          </ul>
        </div>
      </section>

      <section className="band band-soft" aria-labelledby="steps-title">
        <div className="band-inner">
          <h2 id="steps-title">Get started in six steps</h2>
          <ol className="steps">
            {ONBOARDING_STEPS.map(([title, text]) => (
              <li key={title}>
                <h3>{title}</h3>
                <p>{text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section id="pricing" className="band" aria-labelledby="pricing-title" tabIndex={-1}>
        <div className="band-inner">
          <h2 id="pricing-title">Pricing</h2>
          <p className="lead">Start free. Pay per learner when your team needs more.</p>
          <ul className="plans">
            {PLANS.map((plan) => (
              <Plan key={plan.name} plan={plan} />
            ))}
          </ul>
        </div>
      </section>
    </PublicPage>
  );
}

function Plan({ plan }: { plan: (typeof PLANS)[number] }) {
  const id = useId();
  return (
    <li className={`plan${plan.name === 'Enterprise' ? ' plan-featured' : ''}`}>
      <h3 id={id}>{plan.name}</h3>
      <p className="plan-price">
        <strong>{plan.price}</strong>
        <span className="plan-per">{plan.per}</span>
      </p>
      <ul className="plan-features">
        {plan.features.map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
      <Link className="btn btn-block" to={plan.to} aria-describedby={id}>
        Select
      </Link>
    </li>
  );
}

/** The promo video: local, captioned, never autoplaying. */
function PromoVideo() {
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
        <track kind="captions" src="/media/waymark-intro.en.vtt" srcLang="en" label="English" default />
        Your browser cannot play this video.{' '}
        <a href="/media/waymark-intro.webm">Download the introduction video</a>.
      </video>
      <figcaption id="promo-caption">
        Waymark in half a minute: roadmaps, the extension, assessments and awards.
      </figcaption>
    </figure>
  );
}
