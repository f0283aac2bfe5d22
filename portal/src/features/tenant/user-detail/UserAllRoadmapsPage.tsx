/**
 * /portal/users/{userId}/all-roadmaps (mentor §2.6, learner §2): the learner's catalogue with its filters;
 * with the userId param its View opens /portal/users/{userId}/roadmap/{roadmapId}.
 */
import { AllRoadmaps } from '../../../components/AllRoadmaps';
import { useUserId } from './LearnerLayout';

export default function UserAllRoadmapsPage() {
  return <AllRoadmaps userId={useUserId()} />;
}
