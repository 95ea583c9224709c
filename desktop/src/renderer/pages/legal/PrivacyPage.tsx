import { LegalPage } from './LegalPage';

export default function PrivacyPage() {
  return <LegalPage titleKey="legal.privacyTitle" bodyKey="legal.privacyBody" />;
}
