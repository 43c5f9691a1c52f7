import MemberProfile from '#client/features/members/member-profile.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/** A member's page: a shared link's landing too, so app.tsx loads its code only there. */
export default function MemberPage({ username }: { username: string }) {
  return <MemberProfile username={username} notFound={<NotFoundPage />} />;
}
