import { Link } from 'react-router';

/** The learner's assigned roadmaps. */
export default function MyRoadmapsPage() {
  return (
    <div className="page">
      <h1>My Roadmaps</h1>
      <div className="card empty">
        <p>No Roadmaps found, Take one now</p>
        <Link className="btn" to="/all-roadmaps">
          Select a Roadmap
        </Link>
      </div>
    </div>
  );
}
