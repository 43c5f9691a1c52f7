import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { loginBodySchema, registerFormSchema, type LoginBody, type RegisterForm } from '#shared/api/auth.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import { closeAuthDialog, setAuthDialogMode, useAuthDialog } from '#client/lib/auth-dialog-store.ts';
import { useLogin, useRegister } from './auth-mutations.ts';
import { toast } from '#client/lib/toast-store.ts';
import { Button } from '#client/ui/button.tsx';
import { Dialog } from '#client/ui/dialog.tsx';
import { FieldError } from '#client/ui/field-error.tsx';
import { Input } from '#client/ui/input.tsx';
import { PasswordInput } from './password-input.tsx';
import { withQueryClient } from '#client/lib/query-client.tsx';

const emptyLogin: LoginBody = { username: '', password: '' };
const emptyRegister: RegisterForm = { username: '', password: '', confirmPassword: '' };

function AuthDialog() {
  const { open, mode } = useAuthDialog();
  const [visible, setVisible] = useState({ login: false, register: false, confirm: false });
  const loginForm = useForm<LoginBody>({ resolver: zodResolver(loginBodySchema), defaultValues: emptyLogin });
  const registerForm = useForm<RegisterForm>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: emptyRegister,
  });
  const login = useLogin();
  const register = useRegister();

  const resetAll = () => {
    loginForm.reset(emptyLogin);
    registerForm.reset(emptyRegister);
    setVisible({ login: false, register: false, confirm: false });
  };

  const onOpenChange = (next: boolean) => {
    if (!next) {
      closeAuthDialog();
      resetAll();
    }
  };

  const switchMode = () => {
    resetAll();
    setAuthDialogMode(mode === 'login' ? 'register' : 'login');
  };

  const submitLogin = loginForm.handleSubmit((body) =>
    login.mutate(body, {
      onSuccess: ({ user }) => {
        toast({ title: 'Welcome back!', description: `Hello ${user.username}, you're now logged in.` });
        onOpenChange(false);
      },
      onError: (error) =>
        toast({
          title: 'Login failed',
          description: errorMessage(error) ?? 'Please check your credentials and try again.',
          variant: 'destructive',
        }),
    }),
  );

  const submitRegister = registerForm.handleSubmit(({ username, password }) =>
    register.mutate(
      { username, password },
      {
        onSuccess: ({ user }) => {
          toast({
            title: 'Welcome to the Grind!',
            description: `Account created successfully. Welcome ${user.username}!`,
          });
          onOpenChange(false);
        },
        onError: (error) => {
          console.error('Registration failed', error);
          toast({
            title: 'Registration failed',
            description: errorMessage(error) ?? 'Please try again with different credentials.',
            variant: 'destructive',
          });
        },
      },
    ),
  );

  const loginErrors = loginForm.formState.errors;
  const registerErrors = registerForm.formState.errors;

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={mode === 'login' ? 'Welcome Back' : 'Join the Grind'}
      description={
        mode === 'login'
          ? 'Sign in to your account to access exclusive features'
          : 'Create your account to join the community'
      }
    >
      {mode === 'login' ? (
        <form onSubmit={submitLogin} noValidate className="grid gap-4">
          <div>
            <label htmlFor="login-username" className="mb-1 block text-sm font-medium">
              Username
            </label>
            <Input
              id="login-username"
              autoComplete="username"
              aria-invalid={loginErrors.username ? true : undefined}
              aria-describedby={loginErrors.username ? 'login-username-error' : undefined}
              {...loginForm.register('username')}
            />
            <FieldError id="login-username-error" message={loginErrors.username?.message} />
          </div>
          <div>
            <label htmlFor="login-password" className="mb-1 block text-sm font-medium">
              Password
            </label>
            <PasswordInput
              id="login-password"
              autoComplete="current-password"
              visible={visible.login}
              onToggle={() => setVisible((v) => ({ ...v, login: !v.login }))}
              aria-invalid={loginErrors.password ? true : undefined}
              aria-describedby={loginErrors.password ? 'login-password-error' : undefined}
              {...loginForm.register('password')}
            />
            <FieldError id="login-password-error" message={loginErrors.password?.message} />
          </div>
          <Button type="submit" size="lg" disabled={login.isPending}>
            {login.isPending ? 'Signing in...' : 'Sign In'}
          </Button>
          <p className="text-center text-sm text-slate-400">
            Don&apos;t have an account?{' '}
            <button type="button" onClick={switchMode} className="font-semibold text-grind-300 hover:underline">
              Sign up
            </button>
          </p>
        </form>
      ) : (
        <form onSubmit={submitRegister} noValidate className="grid gap-4">
          <div>
            <label htmlFor="register-username" className="mb-1 block text-sm font-medium">
              Username
            </label>
            <Input
              id="register-username"
              autoComplete="username"
              aria-invalid={registerErrors.username ? true : undefined}
              aria-describedby={registerErrors.username ? 'register-username-error' : undefined}
              {...registerForm.register('username')}
            />
            <FieldError id="register-username-error" message={registerErrors.username?.message} />
          </div>
          <div>
            <label htmlFor="register-password" className="mb-1 block text-sm font-medium">
              Password
            </label>
            <PasswordInput
              id="register-password"
              autoComplete="new-password"
              visible={visible.register}
              onToggle={() => setVisible((v) => ({ ...v, register: !v.register }))}
              aria-invalid={registerErrors.password ? true : undefined}
              aria-describedby={registerErrors.password ? 'register-password-error' : undefined}
              {...registerForm.register('password')}
            />
            <FieldError id="register-password-error" message={registerErrors.password?.message} />
          </div>
          <div>
            <label htmlFor="register-confirm" className="mb-1 block text-sm font-medium">
              Confirm Password
            </label>
            <PasswordInput
              id="register-confirm"
              autoComplete="new-password"
              visible={visible.confirm}
              onToggle={() => setVisible((v) => ({ ...v, confirm: !v.confirm }))}
              aria-invalid={registerErrors.confirmPassword ? true : undefined}
              aria-describedby={registerErrors.confirmPassword ? 'register-confirm-error' : undefined}
              {...registerForm.register('confirmPassword')}
            />
            <FieldError id="register-confirm-error" message={registerErrors.confirmPassword?.message} />
          </div>
          <Button type="submit" size="lg" disabled={register.isPending}>
            {register.isPending ? 'Creating Account...' : 'Create Account'}
          </Button>
          <p className="text-center text-sm text-slate-400">
            Already have an account?{' '}
            <button type="button" onClick={switchMode} className="font-semibold text-grind-300 hover:underline">
              Sign in
            </button>
          </p>
        </form>
      )}
    </Dialog>
  );
}

export default withQueryClient(AuthDialog);
