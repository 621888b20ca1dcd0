import type { ReactNode } from 'react';
import styled from 'styled-components';
import type { Theme } from 'shared/arranque';
import { useAppearance } from '../state/appearance';

type T = { theme: Theme };

const StyledPage = styled.main`
  min-height: 100vh;
  display: grid;
  place-items: center;
  padding: 16px;
  background: linear-gradient(160deg, ${({ theme }: T) => theme.primary[800]} 0%, ${({ theme }: T) => theme.primary[600]} 100%);
`;
const StyledCard = styled.div`
  width: 100%;
  max-width: 400px;
  background: #fff;
  border-radius: 12px;
  padding: 28px;
  box-shadow: 0 24px 48px rgb(15 23 42 / 0.3);
  h1 { font-size: 20px; margin: 0 0 4px; }
  p.lead { color: ${({ theme }: T) => theme.gray[600]}; margin: 0 0 20px; font-size: 14px; }
  form { display: flex; flex-direction: column; gap: 14px; }
  .brand { display: flex; justify-content: center; margin-bottom: 18px; padding: 10px; border-radius: 8px; background: ${({ theme }: T) => theme.primary[700]}; }
  .links { display: flex; justify-content: space-between; font-size: 14px; margin-top: 14px; }
  a { color: ${({ theme }: T) => theme.primary[700]}; }
`;

export function AuthCard({ title, lead, children }: { title: string; lead?: ReactNode; children: ReactNode }) {
  const logo = useAppearance((s) => s.logo);
  const docTitle = useAppearance((s) => s.docTitle);
  return (
    <StyledPage>
      <StyledCard>
        <div className="brand">
          <img src={logo} alt={docTitle} height={32} />
        </div>
        <h1>{title}</h1>
        {lead && <p className="lead">{lead}</p>}
        {children}
      </StyledCard>
    </StyledPage>
  );
}
