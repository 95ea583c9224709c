import { LegalPage } from './LegalPage';

export default function TermsPage() {
  return <LegalPage titleKey="legal.termsTitle" bodyKey="legal.termsBody" />;
}
