"""Browser pages for accounts: sign-up, the account's address and its verification (log-in,
log-out and passwords are Django's own views with our templates)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts import selectors, services
from accounts.forms import EmailChangeForm, LoginForm
from accounts.usernames import username_validator
from accounts.verification import VERIFY_MAX_AGE
from apikit import throttles
from apikit.errors_text import act
from core import limits
from core.errors import EmailTaken, Invalid, RateLimited


class Login(auth_views.LoginView):
    """Django's log-in page, with LoginForm."""

    authentication_form = LoginForm


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    email = forms.EmailField(
        label=_("E-mail"),
        help_text=_("We mail you a link to verify it; then it gets your turn mails if you want."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.validators = [username_validator, *username.validators]
        username.widget.attrs["maxlength"] = str(limits.USERNAME_MAX_LENGTH)
        username.help_text = _("Letters A–Z, digits, “_” and “-”; 2 to 30 of them.")


def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        wait = throttles.hit("register", request_address(request))  # the API's sign-ups too
        if wait is not None:
            form.add_error(None, _("Too many attempts: try again later."))
            response = render(request, "registration/signup.html", {"form": form}, status=429)
            response["Retry-After"] = str(wait)
            return response
        try:
            user = services.user_register(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                email=form.cleaned_data["email"],
            )
        except Invalid as refusal:  # e.g. a concurrent sign-up took the name first
            for field, problems in (refusal.fields or {}).items():
                form.add_error(field if field in form.fields else None, problems)
        else:
            login(request, user, backend="accounts.authentication.PlayerBackend")
            messages.info(request, sent_notice(user))
            return redirect(safe_next(request) or "lobby")
    return render(request, "registration/signup.html", {"form": form})


def safe_next(request: HttpRequest) -> str | None:
    """The `next` page to go to, only if it is on this site (never an open redirect)."""
    target = request.POST.get("next") or request.GET.get("next")
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if target and allowed else None


class PasswordChange(auth_views.PasswordChangeView):
    """Django's password change; then every API token of the player stops working (Django
    already ends their other sessions: the session hash changes with the password)."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        services.tokens_revoke_all(user=form.user)
        return response


class PasswordResetConfirm(auth_views.PasswordResetConfirmView):
    """Django's password reset; then every API token and session of the player ends."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        services.tokens_revoke_all(user=form.user)
        return response


class PasswordReset(auth_views.PasswordResetView):
    """Django's reset form, throttled per address and per e-mail (a mail bomb costs us)."""

    def form_valid(self, form: Any) -> HttpResponse:
        address = request_address(self.request)
        email = form.cleaned_data.get("email", "").lower()
        for scope, ident in (("password_reset", address), ("password_reset", f"mail:{email}")):
            wait = throttles.hit(scope, ident)
            if wait is not None:
                form.add_error(None, _("Too many reset requests: try again later."))
                response = self.form_invalid(form)
                response.status_code = 429
                response["Retry-After"] = str(wait)
                return response
        return super().form_valid(form)


def request_address(request: HttpRequest) -> str:
    """The caller's address, as the API's throttles see it."""
    return str(request.META.get("REMOTE_ADDR", ""))


TOO_MANY = _("Too many verification mails: try again in an hour.")


def sent_notice(user: User) -> str:
    return str(
        _("A link to verify %(email)s is on its way (unless the address is verified already).")
        % {"email": user.email}
    )


@require_http_methods(["GET", "POST"])
def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link of the verification mail: a GET (a mail scanner's too) only shows the button;
    its POST verifies the address."""
    context: dict[str, Any] = {"token": token, "state": "ask"}
    status = 200
    if request.method == "POST":
        try:
            user = services.email_verify(token=token)
        except EmailTaken:
            context["state"], status = "taken", 409
        except Invalid:
            context["state"], status = "invalid", 400
        else:
            context.update(state="verified", email=user.email)
    return render(request, "accounts/verify.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def account(request: HttpRequest) -> HttpResponse:
    """The account's address: whether it is verified, a new one (verified again), a new link."""
    user = request.user
    assert isinstance(user, User)
    form = EmailChangeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            if throttles.hit("verify_mail", str(user.pk)) is not None:  # the API's count too
                raise Invalid("Too many changes.", fields={"email": [TOO_MANY]})
            services.email_change(
                user=user, email=form.cleaned_data["email"], password=form.cleaned_data["password"]
            )
        except Invalid as refusal:
            for field, problems in (refusal.fields or {}).items():
                form.add_error(field if field in form.fields else None, problems)
        else:
            if not selectors.email_verified(user):
                messages.info(request, sent_notice(user))
            return redirect("account")
    context = {
        "form": form,
        "email": user.email,
        "verified": selectors.email_verified(user),
        "days": VERIFY_MAX_AGE.days,
    }
    return render(request, "accounts/account.html", context)


@login_required
@require_POST
def verification_resend(request: HttpRequest) -> HttpResponse:
    """Another verification link to the account's address (a few an hour at most)."""
    user = request.user
    assert isinstance(user, User)
    wait = throttles.hit("verify_mail", str(user.pk))  # the API resend's count too
    try:
        if wait is not None:
            raise RateLimited("Too many verification mails.", retry_after=wait)
        services.verification_mail_send(user=user)
    except RateLimited:
        messages.error(request, TOO_MANY)
    except Invalid:
        messages.error(request, _("Your account has no e-mail address."))
    else:
        messages.info(request, sent_notice(user))
    return redirect("account")


RELATIONS = {
    "follow": services.follow,
    "unfollow": services.unfollow,
    "block": services.block,
    "unblock": services.unblock,
}


@login_required
@require_POST
def relation(request: HttpRequest, username: str) -> HttpResponse:
    """Follow, unfollow, block or unblock a player from their profile or the friends page."""
    action = RELATIONS.get(request.POST.get("action", ""))
    if action is None:
        return HttpResponseBadRequest("action: follow, unfollow, block or unblock")
    user = request.user
    assert isinstance(user, User)
    act(request, lambda: action(user=user, username=username))
    return redirect(safe_next(request) or reverse("profile", args=[username]))
