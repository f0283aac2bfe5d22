import { AllRoadmaps } from '../../components/AllRoadmaps';

/** /all-roadmaps: the catalogue with its filters. */
export default function AllRoadmapsPage() {
  return <AllRoadmaps />;
}
